/**
 * The step-through model (`--trace-steps`, report.trace_steps): a step's call stack (the code being run at each
 * depth of inlining and its line), the symbolic locals at a step (each step holds only what changed), the next
 * step that met a graph break, and what a graph break's action and an attempt's outcome mean, in words. The pane
 * is view/panes/traceSteps.ts.
 */
import type { TraceBreak, TraceStep, TraceSteps } from '../schema';

/** What the pane says when the run had no --trace-steps. */
export const NOT_RECORDED =
  'Not recorded. Run the cell with --trace-steps (e.g. %%dynamo --trace-steps, or --trace-steps NAME for one ' +
  "function) to step through Dynamo's symbolic execution of a frame, instruction by instruction.";

/** One entry of a step's call stack: the code being run at that depth and the line it is at. */
export interface ICallSite {
  /** 0: the frame; 1+: inlined calls. */
  depth: number;
  /** The code's name. */
  name: string;
  /** The line it is at (for an outer entry: the line of the call). */
  line: number | null;
}

/**
 * The call stack of step `i`: for each depth up to the step's, the code being run and its line; an outer
 * depth's entry is its last step before `i` in the same attempt (the call that Dynamo is inlining).
 */
export function callStack(trace: TraceSteps, i: number): ICallSite[] {
  const step = trace.steps[i];
  const out: ICallSite[] = [{ depth: step.depth, name: codeName(trace, step), line: step.line }];
  let want = step.depth - 1;
  for (let j = i - 1; j >= 0 && want >= 0; j--) {
    const s = trace.steps[j];
    if (s.attempt !== step.attempt) {
      break;
    }
    if (s.depth === want) {
      out.unshift({ depth: want, name: codeName(trace, s), line: s.line });
      want--;
    }
  }
  return out;
}

/**
 * The symbolic locals at step `i`: each step holds only what changed since its translator's previous step,
 * so they are gathered from the translator's earlier steps. `changed` names those that changed at `i`.
 */
export function localsAt(trace: TraceSteps, i: number): { values: Map<string, string>; changed: Set<string> } {
  const step = trace.steps[i];
  const layers: Array<Record<string, string>> = [];
  for (let j = i; j >= 0; j--) {
    const s = trace.steps[j];
    if (s.attempt !== step.attempt) {
      break;
    }
    if (s.tx === step.tx) {
      layers.push(s.locals);
    }
  }
  const values = new Map<string, string>();
  for (const layer of layers.reverse()) {
    for (const [name, value] of Object.entries(layer)) {
      values.set(name, value);
    }
  }
  const first = layers.length === 1;
  return { values, changed: first ? new Set() : new Set(Object.keys(step.locals)) };
}

/** The index of the next step at or after `from` (wrapping around) that met a graph break, or null. */
export function nextBreak(trace: TraceSteps, from: number): number | null {
  const n = trace.steps.length;
  for (let k = 0; k < n; k++) {
    const i = (from + k) % n;
    if (trace.steps[i].graph_break) {
      return i;
    }
  }
  return null;
}

/** What a graph-break action means, in words. */
export function breakText(gb: TraceBreak): string {
  switch (gb.action) {
    case 'restart':
      return 'Graph break: Dynamo gives up this attempt and restarts the analysis of the frame, to break here';
    case 'compiled':
      return 'Graph break: Dynamo compiles the graph so far here, runs this instruction eagerly and resumes after it';
    case 'unsupported':
      return 'Graph break inside an inlined call: the caller handles it';
    default:
      return 'An error left this instruction';
  }
}

/** The name of the code a step runs. */
function codeName(trace: TraceSteps, step: TraceStep): string {
  return trace.codes[step.code]?.name ?? '?';
}

/** What became of an attempt at tracing the frame, in words. */
export function attemptText(outcome: string): string {
  switch (outcome) {
    case 'restart':
      return 'given up at a graph break; Dynamo traced the frame again';
    case 'compiled':
      return 'ran to the end: its graph was compiled';
    case 'failed':
      return 'an error ended the compile';
    default:
      return 'cut at --trace-steps-max';
  }
}
