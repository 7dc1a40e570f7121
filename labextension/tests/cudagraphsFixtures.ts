/**
 * CUDA graph rows for the tests (report.cudagraphs): `cudagraphRow(overrides)` is a row as the engine writes it on
 * the CPU (minor 15: the graph skipped at compile, inductor's reason and its few words), changed by `overrides`.
 */
import type { CudaGraph } from '../src/schema';

/** Inductor's reason on the CPU, as post_compile words it. */
export const CPU_REASON = 'skipping cudagraphs due to multiple devices: ';

/** A CUDA graph row as the engine writes it on the CPU, with `overrides`. */
export function cudagraphRow(overrides: Partial<CudaGraph> = {}): CudaGraph {
  return {
    compile_id: '0/0',
    kind: 'forward',
    graph_id: null,
    status: 'skipped',
    reason: CPU_REASON,
    reason_text: 'no CUDA device',
    skipped_at: 'compile',
    from_forward: false,
    explanation: 'the graph runs no CUDA code: CUDA graphs record CUDA work only',
    partitions: null,
    recordings: 0,
    rerecord_reasons: [],
    warmups: 0,
    calls: null,
    replays: null,
    eager_runs: null,
    ...overrides
  };
}
