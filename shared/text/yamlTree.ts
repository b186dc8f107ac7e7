// A YAML text's tree, composed only when the text's shape is within the shared limits. The `yaml`
// library reads text into tokens without recursion, then composes the tree recursively and
// resolves each alias by scanning the document: a text nested thousands of levels deep overflows
// the stack (its message, "Maximum call stack size exceeded", reached users as the reason), and
// tens of thousands of aliases take seconds. The tokens are measured first, with an explicit
// stack, and a text over a limit gets a tree with one error that says which limit and where.
// Duplicate keys are found here too, in one pass: the library compares each key of a map with
// every key before it (20,000 keys in one map, 256 KB of text, took 6 s).
import { Composer, Document, Lexer, Parser, YAMLParseError, isMap, isScalar, isSeq, type CST } from 'yaml';
import { limitCodes, limits, tooDeepMessage, tooManyAliasesMessage } from '../limits.ts';

/** How YAML is parsed, so an editor that keeps its own tree of the text gets the same tree. */
export const yamlParseOptions = { prettyErrors: false, logLevel: 'error', uniqueKeys: false } as const;

/** A limit the text is over; parse.ts turns it into a finding with the limit's code. */
export class YamlLimitError extends YAMLParseError {
  readonly limitCode: string;
  constructor(offset: number, limitCode: string, message: string) {
    super([offset, offset + 1], 'RESOURCE_EXHAUSTION', message);
    this.limitCode = limitCode;
  }
}

interface Shape {
  /** Where the text first nests deeper than the limit. */
  tooDeepAt?: number;
  aliases: number;
  firstAliasAt?: number;
}

/** The text's nesting and aliases, read from its tokens with an explicit stack (any depth is safe). */
function shapeOf(tokens: readonly CST.Token[]): Shape {
  const shape: Shape = { aliases: 0 };
  const pending: Array<[CST.Token, number]> = tokens.map((token) => [token, 0]);
  while (pending.length > 0) {
    const [token, depth] = pending.pop()!;
    if (token.type === 'document') {
      if (token.value !== undefined) pending.push([token.value, depth]);
    } else if (token.type === 'alias') {
      shape.aliases += 1;
      shape.firstAliasAt ??= token.offset;
    } else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth + 1 > limits.yamlDepth) {
        shape.tooDeepAt = token.offset;
        return shape;
      }
      for (const item of token.items) {
        if (item.key !== undefined && item.key !== null) pending.push([item.key, depth + 1]);
        if (item.value !== undefined) pending.push([item.value, depth + 1]);
      }
    }
  }
  return shape;
}

function refusedTree(error: YamlLimitError): Document.Parsed {
  const tree = new Document(null, yamlParseOptions) as Document.Parsed;
  tree.range = [0, 0, 0];
  tree.errors.push(error);
  return tree;
}

/**
 * The text's tokens, as `Parser.parse` gives them; or, as soon as the collections open at once
 * are more than the limit, where that happens (reading on would take most of a second for 256 KB
 * of `[`). The parser's stack holds the document, the open collections and at most one scalar.
 */
function tokensOf(text: string): CST.Token[] | { tooDeepAt: number } {
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > limits.yamlDepth + 2) return { tooDeepAt: parser.offset };
  }
  for (const token of parser.end()) tokens.push(token);
  return tokens;
}

/** The text's tree as `parseDocument` composes it, or a tree with one limit error. */
export function parseYamlTree(text: string): Document.Parsed {
  const tokens = tokensOf(text);
  const shape = Array.isArray(tokens) ? shapeOf(tokens) : { ...tokens, aliases: 0 };
  if (shape.tooDeepAt !== undefined)
    return refusedTree(new YamlLimitError(shape.tooDeepAt, limitCodes.tooDeep, tooDeepMessage(limits.yamlDepth)));
  if (shape.aliases > limits.yamlAliases)
    return refusedTree(
      new YamlLimitError(shape.firstAliasAt ?? 0, limitCodes.tooManyAliases, tooManyAliasesMessage(shape.aliases)),
    );
  // What `parseDocument` does with the tokens: the first document, and an error for any other.
  let tree: Document.Parsed | undefined;
  for (const next of new Composer(yamlParseOptions).compose(tokens as CST.Token[], true, text.length)) {
    if (tree === undefined) {
      tree = next;
      continue;
    }
    tree.errors.push(
      new YAMLParseError(
        [next.range[0], next.range[1]],
        'MULTIPLE_DOCS',
        'Source contains multiple documents; please use YAML.parseAllDocuments()',
      ),
    );
    break;
  }
  tree!.errors.push(...duplicateKeyErrors(tree!.contents));
  return tree!;
}

/**
 * The library's `DUPLICATE_KEY` errors, found with one set of keys per map: two scalar keys are the
 * same when their values are (`===`, as the library compares them); other keys never are.
 */
function duplicateKeyErrors(root: unknown): YAMLParseError[] {
  const errors: YAMLParseError[] = [];
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isSeq(node)) for (const item of node.items) pending.push(item);
    if (!isMap(node)) continue;
    const seen = new Set<unknown>();
    for (const pair of node.items) {
      pending.push(pair.key, pair.value);
      if (!isScalar(pair.key) || Number.isNaN(pair.key.value)) continue;
      if (seen.has(pair.key.value)) {
        const start = pair.key.range?.[0] ?? 0;
        errors.push(new YAMLParseError([start, start + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
      } else seen.add(pair.key.value);
    }
  }
  return errors.sort((a, b) => a.pos[0] - b.pos[0]);
}

/** Whether a composed node nests collections more than `limit` levels deep (walked without recursion). */
export function treeNestsDeeperThan(node: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[node, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (isMap(item)) {
      if (depth + 1 > limit) return true;
      for (const pair of item.items) pending.push([pair.key, depth + 1], [pair.value, depth + 1]);
    } else if (isSeq(item)) {
      if (depth + 1 > limit) return true;
      for (const child of item.items) pending.push([child, depth + 1]);
    }
  }
  return false;
}
