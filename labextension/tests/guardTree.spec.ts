/**
 * The view's guard-tree parser (model/guardTree.ts) makes of each tree what the Python side makes of it
 * (compiler/collectors/guards/guards.py `parse_tree` + `rows_from_tree`): tests/goldens/guard_trees.json holds the
 * golden reports' trees with the Python rows (`python -m tests.goldens.regenerate guard_trees`; a Python test
 * checks it is current). A trace's big tree reaches the view as text (a page's, a kernel's) and its rows are these.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardRowsFromTree } from '../src/model/guardTree';
import type { Guard } from '../src/schema';
import { GOLDENS_DIR } from './helpers';

interface ITreeCase {
  golden: string;
  compile_id: string;
  filename: string;
  tree: string;
  rows: Guard[];
}

const { cases } = JSON.parse(readFileSync(join(GOLDENS_DIR, 'guard_trees.json'), 'utf-8')) as { cases: ITreeCase[] };

describe('guard rows from a guard tree, as the Python parser makes them', () => {
  it('holds trees with guards, user lines and every origin', () => {
    expect(cases.length).toBeGreaterThan(10);
    const rows = cases.flatMap(c => c.rows);
    expect(rows.some(r => r.line !== null)).toBe(true);
    expect(new Set(rows.map(r => r.origin))).toEqual(new Set(['LOCAL', 'GLOBAL', 'GLOBAL_STATE', 'OTHER']));
  });

  it.each(cases.map(c => [`${c.golden} [${c.compile_id}]`, c] as const))('%s', (_name, c) => {
    expect(guardRowsFromTree(c.tree, c.filename)).toEqual(c.rows);
  });
});
