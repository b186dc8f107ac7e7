// Where a JSON text first breaks the grammar. `JSON.parse` gives the value but not always a
// position (V8 omits it for some errors), and editors need the exact place. Iterative, so deep
// nesting cannot overflow the stack.

export interface JsonSyntaxError {
  start: number;
  end: number;
  message: string;
}

type State = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'afterValue';

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const escapes = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

export function jsonSyntaxErrorOf(text: string): JsonSyntaxError | undefined {
  const stack: string[] = [];
  let state: State = 'value';
  let i = 0;
  let lastComma = -1;
  const n = text.length;
  const fail = (start: number, message: string, end = start + 1): JsonSyntaxError => ({
    start: Math.min(start, n),
    end: Math.min(Math.max(end, start), n),
    message,
  });

  while (true) {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
    if (i >= n) {
      if (state === 'afterValue' && stack.length === 0) return undefined;
      return fail(n, n === 0 ? 'Expected a JSON value, the document is empty' : 'Unexpected end of JSON input', n);
    }
    const c = text[i];
    switch (state) {
      case 'value':
      case 'valueOrClose': {
        if (c === ']' && state === 'value' && stack[stack.length - 1] === '[' && lastComma >= 0) {
          return fail(lastComma, "Trailing comma: remove the ',' before ']'");
        }
        if (c === ']' && state === 'valueOrClose') {
          stack.pop();
          i++;
          state = 'afterValue';
        } else if (c === '[' || c === '{') {
          stack.push(c);
          i++;
          state = c === '[' ? 'valueOrClose' : 'keyOrClose';
        } else {
          const end = scalarEnd(text, i);
          if (typeof end !== 'number') return end;
          i = end;
          state = 'afterValue';
        }
        break;
      }
      case 'key':
      case 'keyOrClose': {
        if (c === '}' && state === 'key') return fail(lastComma, "Trailing comma: remove the ',' before '}'");
        if (c === '}' && state === 'keyOrClose') {
          stack.pop();
          i++;
          state = 'afterValue';
        } else if (c === '"') {
          const end = stringEnd(text, i);
          if (typeof end !== 'number') return end;
          i = end;
          state = 'colon';
        } else {
          return fail(i, 'Expected a property name in double quotes');
        }
        break;
      }
      case 'colon': {
        if (c !== ':') return fail(i, "Expected ':' after the property name");
        i++;
        state = 'value';
        break;
      }
      case 'afterValue': {
        const top = stack[stack.length - 1];
        if (top === undefined) return fail(i, 'Unexpected text after the JSON value', n);
        if (c === ',') {
          lastComma = i;
          i++;
          state = top === '{' ? 'key' : 'value';
        } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
          stack.pop();
          i++;
        } else {
          return fail(
            i,
            top === '{'
              ? "Expected ',' or '}' after the property value"
              : "Expected ',' or ']' after the array element",
          );
        }
        break;
      }
    }
  }
}

function scalarEnd(text: string, i: number): number | JsonSyntaxError {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  for (const literal of ['true', 'false', 'null']) {
    if (text.startsWith(literal, i)) return i + literal.length;
  }
  numberPattern.lastIndex = i;
  if (numberPattern.test(text)) return numberPattern.lastIndex;
  return {
    start: i,
    end: Math.min(i + 1, text.length),
    message: 'Expected a JSON value (object, array, string, number, true, false or null)',
  };
}

function stringEnd(text: string, open: number): number | JsonSyntaxError {
  let i = open + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20)
      return { start: i, end: i + 1, message: 'Control characters must be escaped inside a JSON string' };
    if (code === 0x5c) {
      const next = text[i + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          return {
            start: i,
            end: Math.min(i + 6, text.length),
            message: 'Bad unicode escape: \\u must be followed by four hex digits',
          };
        }
        i += 6;
        continue;
      }
      if (next === undefined || !escapes.has(next)) {
        return { start: i, end: Math.min(i + 2, text.length), message: 'Bad escape in JSON string' };
      }
      i += 2;
      continue;
    }
    i++;
  }
  return { start: open, end: text.length, message: 'Unterminated string: a closing " is missing' };
}
