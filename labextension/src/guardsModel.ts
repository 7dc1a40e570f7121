/**
 * What the guards pane and the frame title derive from a report, kept free of the DOM so it is tested on goldens:
 *
 * - `guardTier` and `orderGuards`: the order a frame's guards are shown in. The guards that failed in the
 *   recompile lead, then the shape guards, the frame's inputs (`L['x']`, `L['self']`, an element of an input),
 *   the modules and their parameters, the globals (`G['torch']`), anything else; the root guards of the
 *   global state (grad mode, default device, the `GLOBAL_STATE` blob, ...) are kept apart for one summary row.
 * - `globalStateSummary` and `globalStateFields`: that row's words and the blob's fields.
 * - `splitMarkChecks`: a tensor guard's `hasattr(L['x'], '_dynamo_dynamic_indices') == False` checks (the tensor
 *   was not marked with mark_dynamic and its kin), set apart from the check that matters.
 * - `recompileTimeline`: the compiles of one code object ([0/0] → [0/1] → [0/2]) with the guard that failed
 *   on each arrow.
 * - `diffGuards`: the guards of a recompile against those of the compile before, a guard whose checks changed
 *   shown once with only the checks that differ.
 * - `symbolText`: a dynamic-shape symbol as the frame title shows it.
 */
import type { ReportIndex } from './model';
import type { Frame, Guard, Symbol as ShapeSymbol } from './schema';

/** Where a guard is shown, in display order ('state' is the collapsed global-state row, drawn last). */
export type GuardTier = 'failed' | 'shape' | 'input' | 'module' | 'global' | 'other' | 'state';

/** The tiers in display order. */
export const GUARD_TIERS: readonly GuardTier[] = ['failed', 'shape', 'input', 'module', 'global', 'other', 'state'];

/** Heading of each tier's first group, for people. */
export const TIER_TITLES: Record<GuardTier, string> = {
  failed: 'failed in the previous compile',
  shape: 'shape guards',
  input: 'inputs',
  module: 'modules and parameters',
  global: 'globals',
  other: 'other',
  state: 'global state'
};

/** A root local of the frame: `L['x']`, `L['self']` (not `L['self'].lin`). */
const ROOT_LOCAL = /^L\[('[^']*'|"[^"]*"|\d+)\]$/;

/** The key that says 'the same guard' across compiles (the failed-guard highlight and the diff use it). */
export function guardKey(guard: Guard): string {
  return `${guard.type}|${guard.source}`;
}

/**
 * The tier of a guard, not counting a failure. `shapeExprs` are the frame's shape guards
 * (report.shape_guards): a root guard that holds one of them is a shape guard.
 */
export function guardTier(guard: Guard, shapeExprs: ReadonlySet<string> = new Set()): Exclude<GuardTier, 'failed'> {
  const { source } = guard;
  if (!source) {
    const holdsShape = guard.code.some(c => shapeExprs.has(c)) || (guard.type === 'SHAPE_ENV' && guard.code.length > 0);
    return holdsShape ? 'shape' : 'state';
  }
  const nnModule = /NN_MODULE/.test(guard.origin);
  if (source.startsWith('L[')) {
    return ROOT_LOCAL.test(source) || !nnModule ? 'input' : 'module';
  }
  if (source.startsWith('G[') || source === 'G') {
    return nnModule ? 'module' : 'global';
  }
  return nnModule ? 'module' : 'other';
}

/** Guards of one source in one tier. */
export interface IGuardGroup {
  tier: GuardTier;
  source: string;
  guards: Guard[];
}

/** A frame's guards in display order: the groups, and the global-state guards kept for one summary row. */
export interface IOrderedGuards {
  groups: IGuardGroup[];
  state: Guard[];
}

/**
 * Order a frame's guards for display: groups by source, by tier (`GUARD_TIERS`), in Dynamo's order within a
 * tier. A source with a failed guard (`failedKeys`: `guardKey`s) leads, its failed rows first. Global-state
 * guards go to `state` unless one of them failed (then they lead with the other failures).
 */
export function orderGuards(
  guards: readonly Guard[],
  failedKeys: ReadonlySet<string> = new Set(),
  shapeExprs: ReadonlySet<string> = new Set()
): IOrderedGuards {
  const groups = new Map<string, IGuardGroup>();
  const state: Guard[] = [];
  for (const guard of guards) {
    const failed = failedKeys.has(guardKey(guard));
    const base = guardTier(guard, shapeExprs);
    if (base === 'state' && !failed) {
      state.push(guard);
      continue;
    }
    const key = `${base === 'state' ? 'state' : 'group'}\u0000${guard.source}`;
    let group = groups.get(key);
    if (!group) {
      group = { tier: base, source: guard.source, guards: [] };
      groups.set(key, group);
    }
    if (failed) {
      group.tier = 'failed';
    }
    group.guards.push(guard);
  }
  const rank = (tier: GuardTier): number => GUARD_TIERS.indexOf(tier);
  const ordered = [...groups.values()].map((g, i) => ({ g, i }));
  ordered.sort((a, b) => rank(a.g.tier) - rank(b.g.tier) || a.i - b.i);
  for (const { g } of ordered) {
    if (g.tier === 'failed') {
      const failedFirst = g.guards.filter(x => failedKeys.has(guardKey(x)));
      g.guards = [...failedFirst, ...g.guards.filter(x => !failedKeys.has(guardKey(x)))];
    }
  }
  return { groups: ordered.map(({ g }) => g), state };
}

/** Global-state guard kinds in the order their names lead the summary (the ones people change most). */
const STATE_ORDER = ['GRAD_MODE', 'DEFAULT_DEVICE', 'GLOBAL_STATE', 'DETERMINISTIC_ALGORITHMS', 'TORCH_FUNCTION_STATE'];

/** 'GRAD_MODE' -> 'grad mode'. */
export function kindWords(kind: string): string {
  return kind.toLowerCase().replace(/_/g, ' ');
}

/**
 * The summary row of the global-state guards: 'global state: grad mode, default device, … (7)'.
 */
export function globalStateSummary(state: readonly Guard[], shown = 2): string {
  const kinds = [...new Set(state.map(g => g.type))];
  const rank = (k: string): number => {
    const i = STATE_ORDER.indexOf(k);
    return i < 0 ? STATE_ORDER.length : i;
  };
  kinds.sort((a, b) => rank(a) - rank(b));
  const names = kinds.slice(0, shown).map(kindWords);
  const more = kinds.length > shown ? ', …' : '';
  return `global state: ${names.join(', ')}${more} (${state.length})`;
}

/**
 * The fields of Dynamo's global-state check (`___check_global_state() against {"grad_mode":true,...}`) as
 * [name, value] pairs, Dynamo's names verbatim; null when the code is not that check.
 */
export function globalStateFields(code: string): Array<[string, string]> | null {
  const at = code.indexOf(' against {');
  if (!code.startsWith('___check_global_state()') || at < 0) {
    return null;
  }
  try {
    const value = JSON.parse(code.slice(at + ' against '.length)) as Record<string, unknown>;
    return Object.entries(value).map(([k, v]) => [k, JSON.stringify(v)]);
  } catch {
    return null;
  }
}

/** A check that a tensor carries no mark of `torch._dynamo.mark_dynamic` and its kin; the group is the mark. */
const MARK_CHECK = /^hasattr\(.*, '_dynamo_(\w+)_indices'\) == False$/;

/**
 * A guard's checks split into those that say something about the value and the 'not marked' checks Dynamo adds
 * to every tensor (`hasattr(L['x'], '_dynamo_static_indices') == False`), with the marks they name
 * ('dynamic', 'weak_dynamic', 'unbacked', ...). Fewer than two such checks are not worth folding: none split off.
 */
export function splitMarkChecks(code: readonly string[]): { kept: string[]; markChecks: string[]; marks: string[] } {
  const marks = code.map(c => MARK_CHECK.exec(c)?.[1] ?? null);
  if (marks.filter(m => m !== null).length < 2) {
    return { kept: [...code], markChecks: [], marks: [] };
  }
  return {
    kept: code.filter((_, i) => marks[i] === null),
    markChecks: code.filter((_, i) => marks[i] !== null),
    marks: marks.filter((m): m is string => m !== null)
  };
}

/** One arrow of a recompile timeline: `to` was compiled because a guard of `from` failed. */
export interface ITimelineStep {
  from: Frame;
  to: Frame;
  /** The full reason Dynamo gave (the failed guard and its user stack). */
  reason: string;
  /** Its first line, without the user-code comment: `len(items) == 1`. */
  short: string;
}

/** The compiles of one code object, in order, and why each one after the first happened. */
export interface ITimeline {
  frames: Frame[];
  steps: ITimelineStep[];
}

/**
 * The first line of a recompile reason, without Dynamo's `# user code  # file:line` comment.
 */
export function shortReason(reason: string): string {
  const first = reason.split('\n', 1)[0];
  return first.split(/\s{2,}#\s/, 1)[0].trim();
}

/**
 * The recompile timeline of the code object a frame belongs to, or null when it was compiled once.
 */
export function recompileTimeline(index: ReportIndex, frame: Frame): ITimeline | null {
  const chain = index.chainOf.get(frame.compile_id);
  if (!chain || chain.frames.length < 2) {
    return null;
  }
  const steps = chain.frames.slice(1).map((to, i) => {
    const from = chain.frames[i];
    const named = to.recompile_reasons.find(r => r.failed_compile_id === from.compile_id) ?? to.recompile_reasons[0];
    const reason = named?.reason ?? '';
    return { from, to, reason, short: reason ? shortReason(reason) : 'no reason recorded' };
  });
  return { frames: chain.frames, steps };
}

/** A guard of both compiles whose checks differ: only the checks that differ are kept. */
export interface IChangedGuard {
  before: Guard;
  after: Guard;
  removed: string[];
  added: string[];
}

/** The guards of a compile against those of the compile before it. */
export interface IGuardDiff {
  changed: IChangedGuard[];
  removed: Guard[];
  added: Guard[];
  unchanged: number;
}

/**
 * Diff two compiles' guards. Guards are matched by kind and source (`guardKey`): the same checks are
 * unchanged, other checks make a changed guard (`L['x']`'s TENSOR_MATCH with float32, then float64), and a
 * guard of one compile only is removed or added.
 */
export function diffGuards(before: readonly Guard[], after: readonly Guard[]): IGuardDiff {
  const text = (g: Guard): string => g.code.join('\n');
  const pending = new Map<string, Guard[]>();
  for (const guard of before) {
    const list = pending.get(guardKey(guard)) ?? [];
    list.push(guard);
    pending.set(guardKey(guard), list);
  }
  const out: IGuardDiff = { changed: [], removed: [], added: [], unchanged: 0 };
  const unmatched: Guard[] = [];
  for (const guard of after) {
    const list = pending.get(guardKey(guard)) ?? [];
    const same = list.findIndex(g => text(g) === text(guard));
    if (same >= 0) {
      list.splice(same, 1);
      out.unchanged += 1;
    } else {
      unmatched.push(guard);
    }
  }
  for (const guard of unmatched) {
    const previous = pending.get(guardKey(guard))?.shift();
    if (previous) {
      const was = new Set(previous.code);
      const now = new Set(guard.code);
      out.changed.push({
        before: previous,
        after: guard,
        removed: previous.code.filter(c => !now.has(c)),
        added: guard.code.filter(c => !was.has(c))
      });
    } else {
      out.added.push(guard);
    }
  }
  out.removed = before.filter(g => pending.get(guardKey(g))?.includes(g));
  return out;
}

/**
 * A dynamic-shape symbol as the frame title shows it: `s0 = L['x'].size()[0] = 8, [2, int_oo]`.
 */
export function symbolText(symbol: ShapeSymbol): string {
  return `${symbol.symbol} = ${symbol.source} = ${symbol.value}, ${symbol.range}`;
}
