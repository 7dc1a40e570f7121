/**
 * The logic of the bytecode panes, apart from the DOM so that it is tested on the real goldens:
 *
 * - `findFolds` / `bytecodeItems`: Dynamo's glue in the modified bytecode, folded into labelled rows
 *   ("call graph", "restore stack", "call resume");
 * - `lineBlocks`: a listing cut into runs of rows of one source line;
 * - `alignBlocks` / `spacerHeights`: the original and modified blocks paired by source line, and the
 *   blank space each block needs above it so that paired blocks start at the same height.
 *
 * [Note: Dynamo's glue] What the modified code of a frame holds (torch 2.13, Python 3.11; the same shape on
 * 3.12+ with CALL for PRECALL + CALL): the graph call (`LOAD_GLOBAL NULL + __compiled_fn_1`, the
 * `record_pregraph_bytecode_enter` / `_exit` calls with their `tmp_N` stores, the argument loads, the CALL,
 * `DELETE_FAST tmp_N`, `STORE_FAST graph_out_0`); the restore of the stack, locals and globals from the
 * graph's outputs, up to `DELETE_FAST graph_out_0`; the instruction Dynamo could not trace, run as is (a
 * jump, a CALL); then, per resume function, the stack packed into a list and `CALL_FUNCTION_EX` of
 * `__resume_at_N`, and RETURN_VALUE. Every instruction carries a real line: the graph call and the restore
 * carry the frame's first line (the `def` line), the break and the resume calls the break's line.
 */
import type { Instruction, NameRef } from '../schema';

/** The kinds of folded rows. */
export type FoldKind = 'graph-call' | 'restore' | 'resume-call';

/** What a folded row says before its details. */
export const FOLD_TITLES: Record<FoldKind, string> = {
  'graph-call': 'call graph',
  restore: 'restore stack',
  'resume-call': 'call resume'
};

/** A run of instructions shown as one row until expanded. */
export interface IFold {
  readonly kind: FoldKind;
  /** Index of its first instruction in the listing. */
  readonly start: number;
  /** Index after its last instruction. */
  readonly end: number;
  /** The compiled function or resume function it calls (null for a restore). */
  readonly ref: NameRef | null;
  /**
   * The source line of the row: its call's own line, else the first line one of its instructions carries,
   * else (a resume call) the frame's graph-break line when there is exactly one; null when none of these.
   */
  readonly line: number | null;
  /** User names it loads (Dynamo's own temporaries and globals left out), in first-use order. */
  readonly reads: readonly string[];
  /** User names it stores, in order. */
  readonly stores: readonly string[];
}

/** One row of a listing: an instruction (by index) or a fold. */
export type BytecodeItem =
  { readonly kind: 'instruction'; readonly index: number } | { readonly kind: 'fold'; readonly fold: IFold };

/** A run of consecutive items of one source line (`line` null: items that carry none). */
export interface ILineBlock {
  readonly line: number | null;
  /** Index of its first item. */
  readonly start: number;
  /** Index after its last item. */
  readonly end: number;
}

/** Names Dynamo's codegen makes for itself (`codegen.new_var`): never shown as what a fold reads. */
const TEMP_NAME = /^(tmp_\d+|graph_out_\d+)$/;

/** Instructions that call what an opener pushed, from Python 3.10 to 3.14. */
const CALLS = new Set(['CALL', 'CALL_KW', 'CALL_FUNCTION', 'CALL_FUNCTION_KW', 'CALL_FUNCTION_EX', 'CALL_METHOD']);

/** Stack shuffles Dynamo uses to pack the stack for a resume function. */
const PACK_OPS = new Set([
  'BUILD_LIST',
  'BUILD_TUPLE',
  'BUILD_MAP',
  'BUILD_SLICE',
  'LIST_EXTEND',
  'LIST_APPEND',
  'COPY',
  'SWAP',
  'DUP_TOP',
  'DUP_TOP_TWO',
  'ROT_TWO',
  'ROT_THREE',
  'ROT_FOUR',
  'ROT_N',
  'POP_TOP',
  'PUSH_NULL',
  'NOP',
  'LOAD_CONST',
  'LOAD_SMALL_INT',
  'LOAD_FAST',
  'LOAD_FAST_CHECK',
  'LOAD_FAST_BORROW',
  'LOAD_FAST_LOAD_FAST',
  'LOAD_DEREF',
  'LOAD_CLOSURE',
  'BINARY_SUBSCR',
  'STORE_SUBSCR',
  'DELETE_SUBSCR'
]);

/** Pure stack moves that may follow a restore (the NULL and list left on the stack, popped before RETURN). */
const STACK_OPS = new Set(['SWAP', 'COPY', 'POP_TOP', 'NOP', 'DUP_TOP', 'ROT_TWO', 'ROT_THREE', 'ROT_FOUR', 'ROT_N']);

/** Loads whose argument names a user variable. */
const NAME_LOADS = new Set([
  'LOAD_FAST',
  'LOAD_FAST_CHECK',
  'LOAD_FAST_BORROW',
  'LOAD_FAST_LOAD_FAST',
  'LOAD_FAST_BORROW_LOAD_FAST_BORROW',
  'LOAD_DEREF',
  'LOAD_CLOSURE',
  'LOAD_GLOBAL',
  'LOAD_NAME'
]);

/** Stores whose argument names a user variable. */
const NAME_STORES = new Set(['STORE_FAST', 'STORE_FAST_STORE_FAST', 'STORE_DEREF', 'STORE_GLOBAL', 'STORE_NAME']);

/** Whether an instruction pushes a NULL (or self) for a later call: `NULL + f` (3.11-3.13), `f + NULL` (3.14). */
function opensCall(ins: Instruction): boolean {
  if (ins.opname === 'PUSH_NULL' || ins.opname === 'LOAD_METHOD') {
    return true;
  }
  return /^NULL(\|self)? \+ | \+ NULL(\|self)?$/.test(ins.argrepr);
}

/** Whether an instruction ends the straight line a fold may span. */
function endsFlow(ins: Instruction): boolean {
  return ins.jump_target !== null || ins.opname.startsWith('RETURN') || ins.opname === 'RAISE_VARARGS';
}

/** Whether an instruction loads a Dynamo-installed function (compiled graph or resume function). */
function loadsCallee(ins: Instruction): boolean {
  return (ins.ref?.kind === 'compiled_fn' || ins.ref?.kind === 'resume') && ins.opname !== 'STORE_GLOBAL';
}

/** The variable names an instruction's argument spells (`NULL + x` -> x; 3.13's `LOAD_FAST_LOAD_FAST` 'a, b'). */
function argNames(ins: Instruction): string[] {
  const text = ins.argrepr.replace(/^NULL(\|self)? \+ | \+ NULL(\|self)?$/g, '');
  return text
    .split(', ')
    .map(s => s.trim())
    .filter(s => s && !TEMP_NAME.test(s));
}

/** What a run of instructions reads and stores, Dynamo's own names left out. */
function namesIn(code: readonly Instruction[], start: number, end: number): { reads: string[]; stores: string[] } {
  const reads: string[] = [];
  const stores: string[] = [];
  for (let i = start; i < end; i++) {
    const ins = code[i];
    if (ins.ref) {
      continue;
    }
    const into = NAME_LOADS.has(ins.opname) ? reads : NAME_STORES.has(ins.opname) ? stores : null;
    if (!into) {
      continue;
    }
    for (const name of argNames(ins)) {
      if (!into.includes(name)) {
        into.push(name);
      }
    }
  }
  return { reads, stores };
}

/** The first line an instruction of a run carries. */
function firstLine(code: readonly Instruction[], start: number, end: number): number | null {
  for (let i = start; i < end; i++) {
    if (code[i].line !== null) {
      return code[i].line;
    }
  }
  return null;
}

/**
 * The index of the call that consumes the function loaded at `at` (the graph call): openers (NULL pushes,
 * LOAD_METHOD) and calls are counted from the load on, which skips the nested calls of Dynamo's
 * pregraph bytecode (`record_pregraph_bytecode_enter()`). -1 when the straight line ends first.
 */
function nestedCallEnd(code: readonly Instruction[], at: number): number {
  let open = 1;
  for (let j = at + 1; j < code.length; j++) {
    const ins = code[j];
    if (ins.is_jump_target || endsFlow(ins) || loadsCallee(ins)) {
      return -1;
    }
    if (opensCall(ins)) {
      open += 1;
    } else if (CALLS.has(ins.opname)) {
      open -= 1;
      if (open === 0) {
        return j;
      }
    }
  }
  return -1;
}

/**
 * The index of the first call after the resume function's load at `at` (Dynamo pushes its NULL with
 * PUSH_NULL under the packed stack, so nesting is not counted here). -1 when the straight line ends first.
 */
function firstCallEnd(code: readonly Instruction[], at: number): number {
  for (let j = at + 1; j < code.length; j++) {
    const ins = code[j];
    if (ins.is_jump_target || endsFlow(ins) || loadsCallee(ins)) {
      return -1;
    }
    if (CALLS.has(ins.opname)) {
      return j;
    }
  }
  return -1;
}

/**
 * Fold Dynamo's glue in a modified listing ([Note: Dynamo's glue]). `breakLines` are the source lines of
 * the frame's graph breaks (a resume call whose instructions carry no line takes the break's, when there
 * is exactly one). Folds never overlap, never cross a jump or a return, and only a fold's first
 * instruction may be a jump target; anything not recognised stays a plain row. Sorted by `start`.
 */
export function findFolds(code: readonly Instruction[], breakLines: readonly number[] = []): IFold[] {
  const folds: IFold[] = [];
  const taken = new Uint8Array(code.length);
  const take = (kind: FoldKind, start: number, end: number, ref: NameRef | null, line: number | null): void => {
    taken.fill(1, start, end);
    folds.push({ kind, start, end, ref, line, ...namesIn(code, start, end) });
  };
  const lineOf = (start: number, end: number, anchor: number, fallback: number | null): number | null =>
    code[anchor].line ?? firstLine(code, start, end) ?? fallback;

  for (let i = 0; i < code.length; i++) {
    const ins = code[i];
    if (ins.ref?.kind !== 'compiled_fn' || !loadsCallee(ins) || taken[i]) {
      continue;
    }
    const call = nestedCallEnd(code, i);
    if (call < 0) {
      continue;
    }
    // The call's cleanup: `DELETE_FAST tmp_N`, and the store of its result in `graph_out_N`.
    let end = call + 1;
    while (
      end < code.length &&
      !code[end].is_jump_target &&
      (code[end].opname === 'DELETE_FAST' || code[end].opname === 'STORE_FAST') &&
      TEMP_NAME.test(code[end].argrepr)
    ) {
      end += 1;
    }
    take('graph-call', i, end, ins.ref, lineOf(i, end, i, null));
    // The restore: up to the last `DELETE_FAST graph_out_N` of the straight line, then its stack pops.
    let last = -1;
    for (let j = end; j < code.length; j++) {
      const next = code[j];
      if ((j > end && next.is_jump_target) || endsFlow(next) || loadsCallee(next)) {
        break;
      }
      if (next.opname === 'DELETE_FAST' && /^graph_out_\d+$/.test(next.argrepr)) {
        last = j;
      }
    }
    if (last >= 0) {
      let stop = last + 1;
      while (stop < code.length && !code[stop].is_jump_target && STACK_OPS.has(code[stop].opname)) {
        stop += 1;
      }
      take('restore', end, stop, null, lineOf(end, stop, end, null));
    }
  }

  const breakLine = new Set(breakLines).size === 1 ? breakLines[0] : null;
  for (let i = 0; i < code.length; i++) {
    const ins = code[i];
    if (ins.ref?.kind !== 'resume' || !loadsCallee(ins) || taken[i]) {
      continue;
    }
    const call = firstCallEnd(code, i);
    if (call < 0) {
      continue;
    }
    // The stack packed for the resume function, just before its load.
    let start = i;
    while (start > 0 && !code[start].is_jump_target && !taken[start - 1] && PACK_OPS.has(code[start - 1].opname)) {
      start -= 1;
    }
    take('resume-call', start, call + 1, ins.ref, lineOf(start, call + 1, i, breakLine));
  }
  return folds.sort((a, b) => a.start - b.start);
}

/** The rows of a listing: folds in place of their instructions. `folds` sorted by `start`, not overlapping. */
export function bytecodeItems(code: readonly Instruction[], folds: readonly IFold[] = []): BytecodeItem[] {
  const items: BytecodeItem[] = [];
  let f = 0;
  for (let i = 0; i < code.length;) {
    const fold = folds[f];
    if (fold && fold.start === i) {
      items.push({ kind: 'fold', fold });
      i = fold.end;
      f += 1;
    } else {
      items.push({ kind: 'instruction', index: i });
      i += 1;
    }
  }
  return items;
}

/** The source line of an item. */
export function itemLine(code: readonly Instruction[], item: BytecodeItem): number | null {
  return item.kind === 'fold' ? item.fold.line : code[item.index].line;
}

/** At most this many traced lines are listed in a graph call's summary. */
const TRACED_SHOWN = 8;

/**
 * What a folded row says after its title and callee: '23 instructions · reads a, b · stores x', and for a
 * graph call the source lines its graph's nodes come from (`traced`): '· traces lines 7, 8'.
 */
export function foldSummary(fold: IFold, traced: readonly number[] = []): string {
  const parts = [`${fold.end - fold.start} instructions`];
  if (fold.reads.length > 0) {
    parts.push(`reads ${fold.reads.join(', ')}`);
  }
  if (fold.stores.length > 0) {
    parts.push(`stores ${fold.stores.join(', ')}`);
  }
  if (traced.length > 0) {
    const shown = traced.slice(0, TRACED_SHOWN).join(', ');
    parts.push(`traces line${traced.length > 1 ? 's' : ''} ${shown}${traced.length > TRACED_SHOWN ? ', …' : ''}`);
  }
  return parts.join(' · ');
}

/** Cut a sequence of lines into runs of equal lines. */
export function lineBlocks(lines: readonly (number | null)[]): ILineBlock[] {
  const blocks: ILineBlock[] = [];
  let start = 0;
  for (let i = 1; i <= lines.length; i++) {
    if (i === lines.length || lines[i] !== lines[start]) {
      if (i > start) {
        blocks.push({ line: lines[start], start, end: i });
      }
      start = i;
    }
  }
  return blocks;
}

/** Above this many cells, `alignBlocks` pairs greedily instead of by longest common subsequence. */
export const LCS_LIMIT = 4_000_000;

/** How far ahead the greedy pairing looks for a block of the same line. */
const GREEDY_WINDOW = 64;

/**
 * Pair the blocks of two listings by source line, in order: the longest common subsequence of their lines
 * (blocks without a line never pair). Returns index pairs `[a, b]`, both increasing.
 */
export function alignBlocks(a: readonly (number | null)[], b: readonly (number | null)[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const same = (i: number, j: number): boolean => a[i] !== null && a[i] === b[j];
  const pairs: Array<[number, number]> = [];
  if ((n + 1) * (m + 1) > LCS_LIMIT) {
    let j = 0;
    for (let i = 0; i < n && j < m; i++) {
      for (let k = j; k < Math.min(m, j + GREEDY_WINDOW); k++) {
        if (same(i, k)) {
          pairs.push([i, k]);
          j = k + 1;
          break;
        }
      }
    }
    return pairs;
  }
  // lengths[i][j]: LCS of a[i:] and b[j:], row-major in one array.
  const w = m + 1;
  const lengths = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * w + j] = same(i, j)
        ? lengths[(i + 1) * w + j + 1] + 1
        : Math.max(lengths[(i + 1) * w + j], lengths[i * w + j + 1]);
    }
  }
  for (let i = 0, j = 0; i < n && j < m;) {
    if (same(i, j)) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (lengths[(i + 1) * w + j] >= lengths[i * w + j + 1]) {
      i += 1;
    } else {
      j += 1;
    }
  }
  return pairs;
}

/**
 * The blank space to put above each block so that paired blocks start at the same height, given the
 * blocks' heights (in any unit: rows in the tests, pixels in the page). Unpaired blocks take their own
 * height in their own listing only.
 */
export function spacerHeights(
  pairs: ReadonlyArray<readonly [number, number]>,
  heightsA: readonly number[],
  heightsB: readonly number[]
): { a: number[]; b: number[] } {
  const a = new Array<number>(heightsA.length).fill(0);
  const b = new Array<number>(heightsB.length).fill(0);
  let ia = 0;
  let ib = 0;
  let ya = 0;
  let yb = 0;
  for (const [pa, pb] of pairs) {
    for (; ia < pa; ia++) {
      ya += heightsA[ia];
    }
    for (; ib < pb; ib++) {
      yb += heightsB[ib];
    }
    if (ya < yb) {
      a[pa] = yb - ya;
      ya = yb;
    } else if (yb < ya) {
      b[pb] = ya - yb;
      yb = ya;
    }
    ya += heightsA[ia++];
    yb += heightsB[ib++];
  }
  return { a, b };
}
