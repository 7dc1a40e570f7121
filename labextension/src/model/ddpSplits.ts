/**
 * DDP's graph splits (schema minor 12, report.ddp_splits): what the FX pane says of DDPOptimizer's split graph and
 * of each piece it cut the Dynamo graph into at DDP's bucket boundaries ([Note: DDP splits] in
 * compiler/collectors/ddp_splits.py).
 */
import type { DdpSplit, Graph } from '../schema';
/** What a DDP split graph or piece is, with its bucket (the parameters it holds and their bytes). */
export function ddpNote(graph: Graph, splits: DdpSplit[]): string {
  const split = splits.find(s => s.graph_id === graph.id || s.submodules.some(m => m.graph_id === graph.id));
  const pieces = split?.submodules ?? [];
  if (graph.kind === 'ddp_split_graph') {
    const cap = split?.bucket_cap_bytes ? ` (bucket cap ${formatBytes(split.bucket_cap_bytes)})` : '';
    return `DDPOptimizer split the Dynamo graph at DDP's bucket boundaries${cap} into ${pieces.length} pieces · `;
  }
  const i = pieces.findIndex(m => m.graph_id === graph.id);
  if (i < 0) {
    return 'a piece of a DDP split · ';
  }
  const piece = pieces[i];
  return (
    `${piece.name}: piece ${i + 1} of ${pieces.length} of a DDP split, compiled on its own · ` +
    `${piece.parameters.length} parameters, ${formatBytes(piece.bytes)} · `
  );
}

/** 1.0 MB, 34.0 KB, 16 B. */
export function formatBytes(n: number): string {
  if (n >= 1 << 20) {
    return `${(n / (1 << 20)).toFixed(1)} MB`;
  }
  return n >= 1 << 10 ? `${(n / (1 << 10)).toFixed(1)} KB` : `${n} B`;
}
