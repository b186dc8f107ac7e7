// What the Environments view fetches for each level.
import {
  environmentNode,
  environmentNodes,
  snapshotArtifactNodes,
  snapshotPageNodes,
  SNAPSHOTS_PER_PAGE,
} from './environmentModel.ts';
import type { TreeNode } from './nodes.ts';
import type { TreeSource } from './treeProvider.ts';

export const environmentsSource: TreeSource = {
  async roots(api) {
    return environmentNodes(await api.listEnvironments());
  },
  async children(api, node) {
    const { environment, snapshot } = node.ref;
    if (!environment) return [];
    if (node.kind === 'environment') {
      const items = await api.listSnapshots(environment, 1, SNAPSHOTS_PER_PAGE);
      return snapshotPageNodes(environment, node.htmlUrl, items, 1, SNAPSHOTS_PER_PAGE, node.ref.judged !== false);
    }
    if (node.kind === 'snapshot' && snapshot !== undefined)
      return snapshotArtifactNodes(environment, await api.getSnapshot(environment, snapshot));
    return [];
  },
  async more(api, loadMore) {
    const { environment, nextPage, parentUrl, judged } = loadMore.ref;
    if (!environment || !nextPage) return [];
    return snapshotPageNodes(
      environment,
      parentUrl,
      await api.listSnapshots(environment, nextPage, SNAPSHOTS_PER_PAGE),
      nextPage,
      SNAPSHOTS_PER_PAGE,
      judged !== false,
    );
  },
  async reload(api, node): Promise<TreeNode | undefined> {
    if (node.kind !== 'environment') return undefined;
    const fresh = (await api.listEnvironments()).find((environment) => environment.name === node.ref.environment);
    return fresh ? environmentNode(fresh) : undefined;
  },
};
