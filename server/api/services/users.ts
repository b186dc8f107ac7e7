// The caller's own settings (reference §2.18): the default org, kept under the caller's principal
// id, so no other key, whatever it is named, reads or changes it.
import { ApiError } from '../errors.ts';
import type { Principal } from '../principal.ts';
import type { ServiceDeps } from './index.ts';

export function userService({ store }: Pick<ServiceDeps, 'store'>) {
  const mayUseOrg = async (caller: Principal, name: string): Promise<boolean> =>
    caller.orgs === 'all' ? (await store.orgs.byName(name)) !== undefined : caller.orgs.has(name);

  return {
    /** The org chosen earlier while the key may still use it (a --config edit may take it away), else the key's first. */
    async defaultOrgOf(caller: Principal): Promise<string | null> {
      const chosen = await store.userSettings.defaultOrg(caller.id);
      if (chosen !== undefined && (await mayUseOrg(caller, chosen))) return chosen;
      const firstOrg = caller.orgs === 'all' ? (await store.orgs.all())[0]?.name : [...caller.orgs][0];
      return firstOrg ?? null;
    },

    /** Keeps `name` as the caller's default org; an org the caller may not use is refused whether or not it exists. */
    async chooseDefaultOrg(caller: Principal, name: string): Promise<void> {
      if (!(await mayUseOrg(caller, name))) throw new ApiError(403, `Access denied to /api/v2/user/${name}`);
      await store.transaction(async () => await store.userSettings.setDefaultOrg(caller.id, name));
    },
  };
}
