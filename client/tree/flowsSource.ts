// What the Flows view fetches for each level.
import { flowNode, flowNodes, trailNode, trailPageNodes, TRAILS_PER_PAGE } from './flowModel.ts';
import type { TreeNode } from './nodes.ts';
import type { TreeSource } from './treeProvider.ts';

export const flowsSource: TreeSource = {
  async roots(api) {
    return flowNodes(await api.listFlows());
  },
  async children(api, node) {
    if (node.kind !== 'flow' || !node.ref.flow) return [];
    return trailPageNodes(node.ref.flow, await api.listTrails(node.ref.flow, 1, TRAILS_PER_PAGE));
  },
  async more(api, loadMore) {
    const { flow, nextPage } = loadMore.ref;
    if (!flow || !nextPage) return [];
    return trailPageNodes(flow, await api.listTrails(flow, nextPage, TRAILS_PER_PAGE));
  },
  async reload(api, node): Promise<TreeNode | undefined> {
    if (node.kind === 'trail' && node.ref.flow && node.ref.trail)
      return trailNode(node.ref.flow, await api.getTrail(node.ref.flow, node.ref.trail));
    // Only list items carry the flow's latest state.
    if (node.kind === 'flow') {
      const fresh = (await api.listFlows()).find((flow) => flow.name === node.ref.flow);
      return fresh ? flowNode(fresh) : undefined;
    }
    return undefined;
  },
};
