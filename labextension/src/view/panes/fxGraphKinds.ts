/**
 * The graphs of a frame in the FX graph pane: which it draws and in what order (Dynamo's graph or its partial
 * graph, DDP's split graph and pieces, then the AOTAutograd graphs; with no frame, the graphs of the run's exported
 * programs, which belong to no frame), the graph buttons of the toolbar (labelled
 * by kind as Dynamo and AOTAutograd name them, numbered when a kind repeats), and the line that says what a graph
 * is when it is not a compiled Dynamo graph.
 */
import { button, clear } from '../../dom';
import { ddpNote } from '../../model/ddpSplits';
import type { DdpSplit, Graph, GraphKind } from '../../schema';

/** What each graph kind is called on its button, as Dynamo and AOTAutograd name them. */
export const GRAPH_KIND_LABELS: Record<GraphKind, string> = {
  dynamo: 'dynamo',
  dynamo_partial: 'partial',
  ddp_split_graph: 'DDP split',
  ddp_split_child: 'DDP piece',
  aot_joint: 'joint',
  aot_forward: 'forward',
  aot_backward: 'backward',
  aot_inference: 'inference',
  export: 'export'
};

/** The order of the graph buttons. */
const KIND_ORDER: GraphKind[] = [
  'dynamo',
  'dynamo_partial',
  'ddp_split_graph',
  'ddp_split_child',
  'aot_joint',
  'aot_forward',
  'aot_backward',
  'aot_inference',
  'export'
];

/** The graphs of a frame the pane draws: Dynamo's (or its partial graph), then the AOT graphs, in KIND_ORDER. */
export function drawnGraphs(graphs: Graph[]): Graph[] {
  return graphs
    .map((g, i) => [g, i] as const)
    .sort(([a, i], [b, j]) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || i - j)
    .map(([g]) => g);
}

/**
 * One button per graph in `where`, labelled by kind (numbered when a kind repeats); none for one graph. A click
 * shows its graph.
 */
export function renderGraphButtons(where: HTMLElement, graphs: Graph[], show: (graph: Graph) => void): void {
  clear(where);
  if (graphs.length <= 1) {
    return;
  }
  const seen = new Map<GraphKind, number>();
  for (const graph of graphs) {
    const count = graphs.filter(g => g.kind === graph.kind).length;
    const n = (seen.get(graph.kind) ?? 0) + 1;
    seen.set(graph.kind, n);
    // a DDP piece by DDPOptimizer's name for it (submod_0), as its split graph calls it
    // an exported graph by its module's name (export Scale)
    const label =
      graph.kind === 'ddp_split_child' && graph.name
        ? graph.name
        : graph.kind === 'export' && graph.name
          ? `export ${graph.name}`
          : GRAPH_KIND_LABELS[graph.kind] + (count > 1 ? ` ${n}` : '');
    const btn = button(label, () => show(graph), {
      data: { graphId: String(graph.id), kind: graph.kind },
      class: 'jp-DynamoExplorer-small',
      title: graphTitle(graph)
    });
    where.appendChild(btn);
  }
}

/** Mark the button of the graph shown (null: none). */
export function markGraphButton(where: HTMLElement, graph: Graph | null): void {
  for (const btn of Array.from(where.querySelectorAll('button'))) {
    const on = btn.dataset.graphId === String(graph?.id);
    btn.classList.toggle('jp-mod-selected', on);
    btn.setAttribute('aria-pressed', String(on));
  }
}

/** The tooltip of a graph button. */
function graphTitle(graph: Graph): string {
  switch (graph.kind) {
    case 'dynamo':
      return `Dynamo graph${graph.name ? ` ${graph.name}` : ''} (torch-level ops)`;
    case 'dynamo_partial':
      return 'Partial Dynamo graph: traced before the error, never compiled';
    case 'ddp_split_graph':
      return "DDPOptimizer's split graph: the Dynamo graph cut at DDP's bucket boundaries, calling each piece in turn";
    case 'ddp_split_child':
      return `${graph.name ?? 'A piece'}: a piece of the Dynamo graph (one DDP bucket's parameters), compiled by the backend on its own`;
    case 'export':
      return `The graph torch.export made of ${graph.name ?? 'the module'} (aten ops): an exported program's, not a compile's`;
    default:
      return `AOTAutograd ${GRAPH_KIND_LABELS[graph.kind]} graph (aten ops)`;
  }
}

/** A line that says what a graph is when it is not a compiled Dynamo graph. */
export function graphNote(graph: Graph, splits: DdpSplit[] | undefined): string {
  if (graph.kind === 'dynamo_partial') {
    return 'partial graph: traced before the error, never compiled · ';
  }
  if (graph.kind === 'ddp_split_graph' || graph.kind === 'ddp_split_child') {
    return ddpNote(graph, splits ?? []);
  }
  if (graph.kind === 'export') {
    return `exported program of ${graph.name ?? 'the module'} (torch.export): no compile, no frame · `;
  }
  return graph.kind === 'dynamo' ? '' : `AOTAutograd ${GRAPH_KIND_LABELS[graph.kind]} graph · `;
}
