/**
 * The diff of two runs (`dynamo-explorer diff A B`, `%dynamo_diff`, `explore.diff`; compiler/diff) as the diff view
 * reads it: the payload checked (`checkDiff`), the pairs to list (`pairRows`), and two sides' lines compared
 * (`oneSided`: the lines one side has more often than the other, which the view marks).
 *
 * The diff itself is the schema's `CompileDiff` (compiler/schema/compile_diff.v1.schema.json, generated into
 * diffSchema.ts): the engine aligned the compiles and found the differences; this module only arranges them.
 */
import { DIFF_VERSION, type CompileDiff, type FramePair } from '../diffSchema';

/** A payload that is a diff this renderer reads, or why not (one line, naming the fix). */
export type DiffCheck = { ok: true; diff: CompileDiff } | { ok: false; kind: string; message: string };

/** Check that `data` is a diff of a major this renderer reads. */
export function checkDiff(data: unknown): DiffCheck {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, kind: 'malformed', message: 'This output holds no Dynamo Explorer diff (not a JSON object).' };
  }
  const version = (data as { diff_version?: { major?: unknown } }).diff_version;
  if (!version || typeof version.major !== 'number') {
    return { ok: false, kind: 'malformed', message: 'This output holds no Dynamo Explorer diff (no diff_version).' };
  }
  if (version.major !== DIFF_VERSION.major) {
    return {
      ok: false,
      kind: 'version',
      message:
        `This diff is of schema v${version.major}; this renderer reads v${DIFF_VERSION.major}: ` +
        'update the dynamo-explorer extension, or show it with the dynamo-explorer that wrote it.'
    };
  }
  const diff = data as CompileDiff;
  if (!Array.isArray(diff.frames) || !Array.isArray(diff.sides) || diff.sides.length !== 2) {
    return { ok: false, kind: 'malformed', message: 'This diff has no frames or not two sides: it is cut or damaged.' };
  }
  return { ok: true, diff };
}

/** A pair of compiles as the list shows it. */
export interface IPairRow {
  /** Its index in `diff.frames`. */
  index: number;
  pair: FramePair;
  /** Differences of the story (the diff exits 1 on any). */
  differs: boolean;
}

/** The pairs to list: every pair, or (`onlyDiffering`) those whose story differs. */
export function pairRows(diff: CompileDiff, onlyDiffering: boolean): IPairRow[] {
  const rows = diff.frames.map((pair, index) => ({ index, pair, differs: pair.differences.length > 0 }));
  return onlyDiffering ? rows.filter(r => r.differs) : rows;
}

/** The index of the pair the first difference is in (B's compile order, as the engine said it), or -1. */
export function firstDifferingPair(diff: CompileDiff): number {
  return diff.frames.findIndex(p => p.differences.length > 0);
}

/** `[0/0] → [0/1]`, `[0/0] (A only)`: how a pair's compile ids are shown. */
export function pairIds(pair: FramePair): string {
  if (pair.a === null) {
    return `[${pair.b ?? '?'}] (B only)`;
  }
  if (pair.b === null) {
    return `[${pair.a}] (A only)`;
  }
  return pair.a === pair.b ? `[${pair.a}]` : `[${pair.a}] → [${pair.b}]`;
}

/**
 * The indices of the lines of `mine` that `other` lacks: a line `mine` holds more often than `other` marks its
 * surplus occurrences, the last ones (a multiset difference, as the engine compares ops and guards).
 */
export function oneSided(mine: readonly string[], other: readonly string[]): Set<number> {
  const left = new Map<string, number>();
  for (const line of other) {
    left.set(line, (left.get(line) ?? 0) + 1);
  }
  const out = new Set<number>();
  mine.forEach((line, i) => {
    const n = left.get(line) ?? 0;
    if (n > 0) {
      left.set(line, n - 1);
    } else {
      out.add(i);
    }
  });
  return out;
}

/** A graph-break mark's line in a source (null: the break is in another file, or has no line). */
export function breakLine(mark: { filename: string | null; line: number | null }, filename: string): number | null {
  return mark.line !== null && (mark.filename === null || mark.filename === filename) ? mark.line : null;
}
