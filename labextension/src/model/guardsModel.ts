/**
 * What the guards pane and the frame title derive from a report, kept free of the DOM so it is tested on goldens:
 *
 * - `guardTier` and `orderGuards`: the order a frame's guards are shown in. The guards that failed in the
 *   recompile lead, then the shape guards, the frame's inputs (`L['x']`, `L['self']`, an element of an input),
 *   the modules and their parameters, the globals (`G['torch']`), anything else; the root guards of the
 *   global state (grad mode, default device, the `GLOBAL_STATE` blob, ...) are kept apart for one summary row.
 * - `globalStateSummary` and `globalStateFields`: that row's words and the blob's fields.
 * - `splitMarkChecks` and `foldedMarkRows`: a tensor's `hasattr(L['x'], '_dynamo_dynamic_indices') == False` checks
 *   (the tensor was not marked with mark_dynamic and its kin), set apart from the check that matters.
 * - `recompileTimeline`: the compiles of one code object ([0/0] → [0/1] → [0/2]) with the guard that failed
 *   on each arrow.
 * - `diffGuards`: the guards of a recompile against those of the compile before, a guard whose checks changed
 *   shown once with only the checks that differ; `diffNote` says when it cannot be complete.
 * - `failureText`, `failureWhat`, `failedGuardsOf`: every guard of an old cache entry that failed
 *   (`recompile_reasons[].failures`, minor 6) in words, and the rows of the entry's guards they are.
 * - `dynamicDecisions`: a recompile tied to the automatic-dynamic decision it led to (after [0/0] → size
 *   mismatch, Dynamo marked L['x'] dim 0 dynamic; [0/1] compiled with s0).
 */
import { dynamicText, symbolsOf } from './shapeText';
import { legacyFailureWhat } from './legacyWords';
import { failedGuards, type ReportIndex } from './model';
import type {
  AutomaticDynamic,
  CompileReport,
  Frame,
  Guard,
  GuardFailure,
  RecompileReason,
  Symbol as ShapeSymbol
} from '../schema';

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

/** A check that reads a local or a global of the frame (`L['x']`, `G['torch']`). */
const NAMES_A_SOURCE = /\b[LG]\[/;

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
    // a root check between two inputs (`G['a'].F is G['b'].F`, `check_overlapping(...)`) is not the global state
    return holdsShape ? 'shape' : guard.code.some(c => NAMES_A_SOURCE.test(c)) ? 'other' : 'state';
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
 * tier. A source with a failed guard (`failedKeys`: `guardKey`s) leads, its failed rows first; so does a source a
 * failed guard of the compile before had, though its kind changed (`L['flag']`'s TRUE_MATCH failed, this compile
 * holds FALSE_MATCH). Global-state guards go to `state` unless one of them failed (then they lead with the other
 * failures).
 */
export function orderGuards(
  guards: readonly Guard[],
  failedKeys: ReadonlySet<string> = new Set(),
  shapeExprs: ReadonlySet<string> = new Set()
): IOrderedGuards {
  const groups = new Map<string, IGuardGroup>();
  const state: Guard[] = [];
  const failedSources = new Set([...failedKeys].map(k => k.slice(k.indexOf('|') + 1)).filter(s => s !== ''));
  for (const guard of guards) {
    const failed = failedKeys.has(guardKey(guard)) || failedSources.has(guard.source);
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
const STATE_ORDER = [
  'GRAD_MODE',
  'GLOBAL_STATE',
  'DEFAULT_DEVICE',
  'DETERMINISTIC_ALGORITHMS',
  'TORCH_FUNCTION_STATE',
  'TORCH_FUNCTION_MODE_STACK'
];

/**
 * 'GRAD_MODE' -> 'grad mode'. The guard tree's GLOBAL_STATE blob checks grad mode first (with autocast, the default
 * dtype, ...): 'grad mode' too, as the exported GRAD_MODE guard said.
 */
export function kindWords(kind: string): string {
  return kind === 'GLOBAL_STATE' ? 'grad mode' : kind.toLowerCase().replace(/_/g, ' ');
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
  const words = [...new Set(kinds.map(kindWords))];
  const names = words.slice(0, shown);
  const more = words.length > shown ? ', …' : '';
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
 * The rows of a source's guard group that say only that the tensor carries no mark of mark_dynamic and its kin
 * (`DIMENSION_DYNAMIC_MARKING_GUARD: hasattr(L['x'], '_dynamo_dynamic_indices') == False`: five a tensor, a leaf each
 * in the guard tree), to show as one folded line; none when fewer than two or when one of them failed.
 */
export function foldedMarkRows(guards: readonly Guard[], failedKeys: ReadonlySet<string> = new Set()): Set<Guard> {
  const marks = guards.filter(
    g => g.type === 'DIMENSION_DYNAMIC_MARKING_GUARD' && g.code.length === 1 && MARK_CHECK.test(g.code[0])
  );
  return marks.length >= 2 && !marks.some(g => failedKeys.has(guardKey(g))) ? new Set(marks) : new Set();
}

/**
 * A guard's checks split into those that say something about the value and the 'not marked' checks Dynamo adds
 * to every tensor (`hasattr(L['x'], '_dynamo_static_indices') == False`), with the marks they name
 * ('dynamic', 'weak_dynamic', 'unbacked', ...). Fewer than two such checks are not worth folding: none split off.
 * (A live run's exported TENSOR_MATCH held them, before minor 26; since, each is a row of its own: `foldedMarkRows`.)
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
 * Why a guard diff leaves something out, or null: a compile whose guards were cut (a `truncated` diagnostic
 * of either compile: the report keeps the first guards of a very large frame).
 */
export function diffNote(report: CompileReport, before: Frame, after: Frame): string | null {
  const cut = report.diagnostics.filter(
    d => d.kind === 'truncated' && (d.compile_id === before.compile_id || d.compile_id === after.compile_id)
  );
  return cut.length > 0 ? `incomplete: ${cut.map(d => d.message).join('; ')}` : null;
}

/**
 * What failed, in a few words, as the engine wrote it (`what`, minor 15: compiler/summary.py `failure_what`):
 * `dtype mismatch` for a tensor property, `grad_mode changed` for a global-state field, `is another object` /
 * `has another type` for ID_MATCH / TYPE_MATCH, else the check (`L['n'] == 2`).
 */
export function failureWhat(failure: GuardFailure): string {
  return failure.what ?? legacyFailureWhat(failure);
}

/**
 * The head of a failure: `L['x'] dtype mismatch`, `G['act'] is another object`, or the check alone when it names
 * its value (`L['n'] == 2`) or has none (a shape guard).
 */
export function failureHead(failure: GuardFailure): { source: string; what: string } {
  const what = failureWhat(failure);
  return { source: failure.source && !what.includes(failure.source) ? failure.source : '', what };
}

/**
 * A failure in one line: `L['x'] dtype: expected torch.float32, actual torch.float64`,
 * `L['n']: expected 2, actual 3`; a failure known only from Dynamo's own reason has no actual value.
 */
export function failureText(failure: GuardFailure): string {
  const what = failure.source || (failure.guard_type === 'GLOBAL_STATE' ? 'global state' : failure.check);
  const prop = failure.property ? ` ${failure.property}` : '';
  const actual = failure.actual !== null ? `, actual ${failure.actual}` : '';
  return `${what}${prop}: expected ${failure.expected}${actual}`;
}

/**
 * The guards of `previous` (the old compile) that failed and made `frame` recompile. From the failures of the
 * reasons naming `previous` (minor 6): the guard of the same source that holds the failing check (a TENSOR_MATCH
 * or GLOBAL_STATE row of that source also for a property); for older reports, from Dynamo's reason text
 * (`failedGuards`).
 */
export function failedGuardsOf(frame: Frame, previous: Frame | null): Set<Guard> {
  const out = failedGuards(frame, previous);
  if (!previous) {
    return out;
  }
  for (const reason of frame.recompile_reasons) {
    if (reason.failed_compile_id !== null && reason.failed_compile_id !== previous.compile_id) {
      continue;
    }
    for (const failure of reason.failures ?? []) {
      for (const guard of previous.guards) {
        if (guard.source !== failure.source) {
          continue;
        }
        const holds = guard.code.includes(failure.check);
        const sameKind = failure.property !== null && guard.type === failure.guard_type;
        if (holds || sameKind) {
          out.add(guard);
        }
      }
    }
  }
  return out;
}

/** A recompile tied to the automatic-dynamic decision it led to. */
export interface IDynamicDecision {
  /** The input this compile marked dynamic (frames[].automatic_dynamic with marked_in = this compile). */
  decision: AutomaticDynamic;
  /** The reason (old entry) whose failure on that input led to it, when the report has one. */
  reason: RecompileReason | null;
  /** That failure (a TENSOR_MATCH size mismatch, an EQUALS_MATCH on an int), when the report has it (minor 6). */
  failure: GuardFailure | null;
  /** This compile's symbols for that input (`s0 = L['x'].size()[0]`). */
  symbols: ShapeSymbol[];
  /** The story in one line: after [0/0] → size mismatch, Dynamo marked L['x'] dim 0 dynamic; [0/1] compiled with s0. */
  text: string;
  /** Its second half, shown under the failure: Dynamo marked L['x'] dim 0 dynamic; [0/1] compiled with s0. */
  marked: string;
}

/** Does a symbol's source read `input` (`L['x'].size()[0]` for L['x'], `L['n']` for L['n'])? */
function readsInput(symbol: ShapeSymbol, input: string): boolean {
  return symbol.source === input || symbol.source.startsWith(`${input}.size()[`);
}

/**
 * The inputs this compile marked dynamic, each tied to the guard failure of the old entry that led to it and
 * to the symbols it was compiled with. Empty when the compile marked nothing (it may still be symbolic: an
 * earlier compile or run marked the input, `frames[].automatic_dynamic[].marked_in`).
 */
export function dynamicDecisions(report: CompileReport, frame: Frame): IDynamicDecision[] {
  const marked = (frame.automatic_dynamic ?? []).filter(d => d.marked_in === frame.compile_id);
  const symbols = symbolsOf(report, frame.compile_id);
  return marked.map(decision => {
    let reason: RecompileReason | null = null;
    let failure: GuardFailure | null = null;
    for (const r of frame.recompile_reasons) {
      const hit = (r.failures ?? []).find(f => f.source === decision.source);
      if (hit && (!failure || (hit.in_reason && !failure.in_reason))) {
        reason = r;
        failure = hit;
      }
    }
    reason = reason ?? frame.recompile_reasons[0] ?? null;
    const mine = symbols.filter(s => readsInput(s, decision.source));
    const after = reason?.failed_compile_id ? `after [${reason.failed_compile_id}] → ` : '';
    const what = failure
      ? failure.property || failure.guard_type === 'ID_MATCH' || failure.guard_type === 'TYPE_MATCH'
        ? `${failureWhat(failure)} on ${decision.source}`
        : `${failure.check} failed`
      : reason
        ? shortReason(reason.reason)
        : '';
    const was = decision.was ? ` (was ${decision.was})` : '';
    const compiled = mine.length
      ? `; [${frame.compile_id}] compiled with ${mine.map(s => `${s.symbol} = ${s.source}`).join(', ')}`
      : '';
    const marked = `Dynamo marked ${dynamicText(decision)} dynamic${was}${compiled}`;
    const text = `${after}${what ? `${what}, ` : ''}${marked}`;
    return { decision, reason, failure, symbols: mine, text, marked };
  });
}
