/**
 * A guard-manager tree's leaves as guard rows, in the view: what compiler/collectors/guards/guards.py's `parse_tree`
 * and `rows_from_tree` make of the tree `TORCH_LOGS=guards` prints (a report read from a trace holds a big tree in
 * its log or, in a page, compressed, and its rows are derived here when a view loads them: schema `PartCut.log`).
 * The two agree row for row on tests/goldens/guard_trees.json (written by the Python side).
 */
import type { Guard } from '../schema';

// a manager line (its source pushed on the stack) or a leaf line (a guard): `+- KIND: check  # code  # file:line in fn`
const TREE_LINE =
  /^(?<indent>[| ]*)\+- (?:(?:GuardManager|DictGuardManager|DictSubclassGuardManager|RootGuardManager)(?:: source=(?<source>.+?), accessed_by=[^\n]*)?|(?<kind>[A-Z][A-Z0-9_]+): (?<code>[^\n]*))$/gmu;
const WHERE = /(?<file>[^\s#]+):(?<line>\d+) in [\p{L}\p{N}_<>.]+/u;

/** Python's `text.rsplit('# ', 1)[-1]`. */
function lastAfterHash(text: string): string {
  const at = text.lastIndexOf('# ');
  return at < 0 ? text : text.slice(at + 2);
}

/** The user line a guard's comment names, when it is a line of `filename` (the tree shortens paths: a suffix). */
function userLine(where: string, filename: string): number | null {
  const found = WHERE.exec(lastAfterHash(where));
  return found?.groups && filename.endsWith(found.groups.file) ? Number(found.groups.line) : null;
}

function origin(source: string): string {
  if (source.startsWith('L[')) {
    return 'LOCAL';
  }
  if (source.startsWith('G[') || source === 'G') {
    return 'GLOBAL';
  }
  return source ? 'OTHER' : 'GLOBAL_STATE';
}

/** Every leaf guard of `tree` as a row, in tree order (`rows_from_tree(parse_tree(tree, filename))`). */
export function guardRowsFromTree(tree: string, filename: string): Guard[] {
  const rows: Guard[] = [];
  const stack: [number, string][] = [];
  const lines = new Map<string, number | null>();
  for (const m of tree.matchAll(TREE_LINE)) {
    const g = m.groups!;
    const depth = g.indent.length;
    while (stack.length > 0 && stack[stack.length - 1][0] >= depth) {
      stack.pop();
    }
    if (g.kind === undefined) {
      stack.push([depth, g.source ?? '']);
      continue;
    }
    const at = g.code.indexOf('  # ');
    const check = at < 0 ? g.code : g.code.slice(0, at);
    let line: number | null = null;
    if (at >= 0) {
      const where = lastAfterHash(g.code.slice(at + 4));
      if (!lines.has(where)) {
        lines.set(where, userLine(where, filename));
      }
      line = lines.get(where)!;
    }
    const source = stack.length > 0 ? stack[stack.length - 1][1] : '';
    rows.push({ type: g.kind, source, code: [check.trim()], line, origin: origin(source) });
  }
  return rows;
}
