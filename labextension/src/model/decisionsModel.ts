/**
 * The call tree of the decisions pane (issue 13 item 1), from a frame's `decisions` (schema minor 7): each call
 * Dynamo met while tracing, what it decided (inline, skip, disabled, allow_in_graph, ...) and the rule. The list
 * is flat, in call order, each call naming its `parent`; this module rebuilds the tree, hides the calls that
 * decide nothing interesting unless asked (torch ops, builtins), and words each row. [Note: decisions] in
 * compiler/collectors/decisions.py says how the engine reads each decision.
 */
import type { ReportIndex } from './model';
import type { Decision, Frame } from '../schema';

/** Dynamo's decisions, in the order the pane's legend and counts list them. */
export const DECISIONS: readonly Decision['decision'][] = [
  'inline',
  'skip',
  'disabled',
  'allow_in_graph',
  'polyfill',
  'in_graph',
  'builtin',
  'other'
];

/** What each decision means, for a badge's tooltip. */
export const DECISION_TITLES: Record<Decision['decision'], string> = {
  inline: 'inlined: Dynamo traced into the function',
  skip: 'skipped: not traced into (a graph break unless Dynamo could evaluate it on constants)',
  disabled: 'torch._dynamo.disable: a graph break, the function runs eagerly',
  allow_in_graph: 'allow_in_graph: one node in the FX graph, not traced into',
  polyfill: 'polyfill: Dynamo traces its own Python version of the function',
  in_graph: 'a torch function, put in the FX graph as one node',
  builtin: 'a Python builtin Dynamo models itself',
  other: 'another kind of callee (see its VariableTracker)'
};

/** Decisions hidden by default: they are leaves that decide nothing a reader looks for. */
const QUIET: ReadonlySet<Decision['decision']> = new Set(['in_graph', 'builtin', 'other']);

/** One call of the tree. */
export interface IDecisionNode {
  /** Its index in the frame's `decisions`. */
  index: number;
  decision: Decision;
  children: IDecisionNode[];
}

/** A frame's decisions (an older report, schema minor < 7, has none). */
export function readDecisions(frame: Frame | null): Decision[] {
  const list = (frame as { decisions?: unknown } | null)?.decisions;
  return Array.isArray(list) ? (list as Decision[]) : [];
}

/**
 * The call tree of a frame's decisions. With `all` false, torch ops, builtins and other plain callees are left
 * out unless they broke the graph or something under them is shown.
 */
export function buildTree(decisions: readonly Decision[], all: boolean): IDecisionNode[] {
  const nodes = decisions.map((decision, index): IDecisionNode => ({ index, decision, children: [] }));
  const roots: IDecisionNode[] = [];
  for (const node of nodes) {
    const parent = node.decision.parent;
    if (typeof parent === 'number' && parent >= 0 && parent < node.index) {
      nodes[parent].children.push(node);
    } else {
      roots.push(node);
    }
  }
  return all ? roots : prune(roots);
}

function prune(nodes: IDecisionNode[]): IDecisionNode[] {
  const kept: IDecisionNode[] = [];
  for (const node of nodes) {
    const children = prune(node.children);
    if (children.length > 0 || !QUIET.has(node.decision.decision) || node.decision.outcome !== 'ok') {
      kept.push({ ...node, children });
    }
  }
  return kept;
}

/** How many calls of each decision a frame has, in `DECISIONS` order, without the zeros. */
export function decisionCounts(decisions: readonly Decision[]): Array<[Decision['decision'], number]> {
  const counts = new Map<Decision['decision'], number>();
  for (const d of decisions) {
    counts.set(d.decision, (counts.get(d.decision) ?? 0) + 1);
  }
  return DECISIONS.filter(k => counts.has(k)).map(k => [k, counts.get(k) ?? 0]);
}

/** Whether a call's callee is code of the explored cell (or of the frame's own file). */
export function isUserCallee(d: Decision, frame: Frame, index: ReportIndex): boolean {
  return (
    d.filename !== null &&
    (d.filename === index.report.cell.filename || (frame.code.in_cell && d.filename === frame.code.filename))
  );
}

/** The callee as a reader names it: `helper` for the cell's own code and `len` for a builtin, `copy.deepcopy` for a library's. */
export function calleeLabel(d: Decision, frame: Frame, index: ReportIndex): string {
  const bare = !d.module || d.module === '__main__' || d.module === 'builtins' || d.name.startsWith(`${d.module}.`);
  if (bare || isUserCallee(d, frame, index)) {
    return d.name;
  }
  return `${d.module}.${d.name}`;
}

/** Whether a node starts open: code of the cell, or a call on the way to a graph break. */
export function startsOpen(node: IDecisionNode, frame: Frame, index: ReportIndex): boolean {
  return isUserCallee(node.decision, frame, index) || node.decision.outcome === 'graph_break';
}

/** Whether a call's line is in the frame's own code (its source pane can show it). */
export function inFrameSource(filename: string, line: number | null, frame: Frame, index: ReportIndex): boolean {
  if (line === null) {
    return false;
  }
  return filename === frame.code.filename || (frame.code.in_cell && filename === index.report.cell.filename);
}
