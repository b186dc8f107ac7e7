// How deeply a rule may nest, and how deep a parsed rule is: the parser holds a rule to the limit
// while it reads (its own recursion) and once it has read it (operator chains and paths, which it
// builds by loops).
import type { JqNode } from './syntax.ts';

/**
 * How deeply a rule may nest (parentheses, brackets, pipes, negations, path steps, operator
 * chains). Far beyond any real rule, and low enough that neither parsing nor evaluation can
 * exhaust the stack, whatever text a client sends.
 */
export const MAX_RULE_DEPTH = 200;

function children(node: JqNode): Array<JqNode | undefined> {
  switch (node.kind) {
    case 'identity':
    case 'literal':
      return [];
    case 'index':
      return [node.target, node.index];
    case 'slice':
      return [node.target, node.from, node.to];
    case 'iterate':
      return [node.target];
    case 'try':
      return [node.body];
    case 'negate':
      return [node.operand];
    case 'array':
      return [node.body];
    case 'object':
      return node.entries.flatMap(({ key, value }) => [key, value]);
    case 'if':
      return [...node.branches.flatMap(({ condition, then }) => [condition, then]), node.otherwise];
    case 'call':
      return node.args;
    default:
      return [node.left, node.right];
  }
}

/** The syntax tree's depth, measured without recursion: operator chains and paths are built by loops, not nesting. */
export function treeDepth(root: JqNode): number {
  let deepest = 0;
  const pending: Array<[JqNode, number]> = [[root, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of children(node)) if (child !== undefined) pending.push([child, depth + 1]);
  }
  return deepest;
}
