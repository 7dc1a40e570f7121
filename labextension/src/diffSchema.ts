/* eslint-disable */
/**
 * Types for the diff of two runs, generated, do not edit.
 *
 * Source: compiler/schema/compile_diff.v1.schema.json
 * Regenerate with `npm run build:schema`; CI runs `npm run check:schema`, which fails on any drift.
 */

/**
 * What changed between two compile reports (dynamo-explorer diff A B; compiler/diff). Hand-edited: compiler/diff writes it, compiler/schema validates it, the terminal summary and the HTML page read it. Bump diff_version's minor when a field is added; a new major changes the MIME type (application/vnd.dynamo-explorer.diff.v1+json).
 */
export interface CompileDiff {
  diff_version: {
    major: 1;
    /**
     * 1: FramePair.view, views_left_out
     */
    minor: number;
  };
  /**
   * A (the older, the reference) and B, in that order.
   *
   * @minItems 2
   * @maxItems 2
   */
  sides: [Side, Side];
  /**
   * The settings the two sides ran with that differ (torch, Python, backend, mode, dynamic, fullgraph, device): the comparison still runs, but what differs may come from them.
   */
  confounded: Confounder[];
  /**
   * No difference of the story (diff exits 0); costs may still differ.
   */
  same_story: boolean;
  /**
   * The first difference of the story in one line, in B's compile order: '[0/0] f: a new graph break at v2.py:6 (print(x)): ...'.
   */
  first_difference: string | null;
  /**
   * How many differences of the story the frames hold.
   */
  differences: number;
  /**
   * Every compile of both sides, paired by function (code name and file, a resume function without its line; then the order of its compiles), in B's compile order.
   */
  frames: FramePair[];
  /**
   * (minor 1) Pairs that differ past the first 100, which carry no view (compiler/diff/views.py).
   */
  views_left_out?: number;
}
/**
 * This interface was referenced by `CompileDiff`'s JSON-Schema
 * via the `definition` "Side".
 */
export interface Side {
  /**
   * The path given (a report or a TORCH_TRACE directory or log).
   */
  source: string;
  torch_version: string | null;
  python_version: string | null;
  backend: string | null;
  mode: string | null;
  dynamic: boolean | null;
  fullgraph: boolean | null;
  device: string | null;
  scope: string | null;
  frames: number;
  /**
   * Dynamo graphs.
   */
  graphs: number;
  graph_breaks: number;
  recompiles: number;
  /**
   * Every compile's time, summed.
   */
  compile_s: number;
}
/**
 * This interface was referenced by `CompileDiff`'s JSON-Schema
 * via the `definition` "Confounder".
 */
export interface Confounder {
  setting:
    'torch_version' | 'python_version' | 'backend' | 'mode' | 'dynamic' | 'fullgraph' | 'device';
  a: string | null;
  b: string | null;
}
/**
 * This interface was referenced by `CompileDiff`'s JSON-Schema
 * via the `definition` "FramePair".
 */
export interface FramePair {
  /**
   * The code's name (a resume function's without its line).
   */
  function: string;
  /**
   * The code's file, its base name (B's, or A's for a compile of A alone).
   */
  filename: string;
  /**
   * A's compile id; null: B compiled this and A did not.
   */
  a: string | null;
  /**
   * B's compile id; null: A compiled this and B did not.
   */
  b: string | null;
  differences: Difference[];
  costs: Difference[];
  /**
   * (minor 1) Both sides of a pair that differs, as the diff view draws them side by side; absent on a pair that does not differ and past the first 100 that do.
   */
  view?: {
    a: FrameView | null;
    b: FrameView | null;
  };
}
/**
 * This interface was referenced by `CompileDiff`'s JSON-Schema
 * via the `definition` "Difference".
 */
export interface Difference {
  /**
   * Of the story: frame (a compile on one side only), graph_break, recompile (other failing guards), graph (ops or canonical lines), guards, symbols, status, kernels. Of the cost: compile_time (beyond noise), cache.
   */
  kind:
    | 'frame'
    | 'graph_break'
    | 'recompile'
    | 'graph'
    | 'guards'
    | 'symbols'
    | 'status'
    | 'kernels'
    | 'compile_time'
    | 'cache';
  function: string;
  a: string | null;
  b: string | null;
  /**
   * The difference in one line.
   */
  summary: string;
  /**
   * What B has and A has not (breaks, ops, guards, symbols, ...).
   */
  added: string[];
  /**
   * What A has and B has not.
   */
  removed: string[];
  /**
   * What both have, changed: a guard of one kind and source whose code differs, told by the parts that changed ('GLOBAL_STATE ___check_global_state(): +"cuda_matmul_precision":0,').
   */
  changed: string[];
  /**
   * For a graph: the unified diff of both graphs' canonical lines (nodes numbered in order).
   */
  detail: string | null;
}
/**
 * One side of a pair that differs: what the diff view shows of it.
 *
 * This interface was referenced by `CompileDiff`'s JSON-Schema
 * via the `definition` "FrameView".
 */
export interface FrameView {
  compile_id: string;
  /**
   * The function's own lines, where the report holds them (its cell, or its files' excerpts).
   */
  source: FrameSource | null;
  breaks: BreakMark[];
  /**
   * Each guard as its kind and code ('TENSOR_MATCH check_tensor(L['x'], ...)'), sorted; the rows of a guards Difference read the same.
   */
  guards: string[];
  guards_left_out: number;
  /**
   * Each Dynamo graph's canonical lines, each graph after a line 'graph': '%2 = call_function _operator.mul(%1, 3)  # [8] float32'.
   */
  graph: string[];
  graph_left_out: number;
}
/**
 * This interface was referenced by `CompileDiff`'s JSON-Schema
 * via the `definition` "FrameSource".
 */
export interface FrameSource {
  /**
   * Its base name.
   */
  filename: string;
  first_line: number;
  lines: string[];
}
/**
 * This interface was referenced by `CompileDiff`'s JSON-Schema
 * via the `definition` "BreakMark".
 */
export interface BreakMark {
  filename: string | null;
  line: number | null;
  gb_type: string;
  reason: string;
}

/** The diff schema version this renderer was generated from (x-dynamo-explorer.version). */
export const DIFF_VERSION = { major: 1, minor: 1 } as const;

/** The MIME type of a diff of two runs; the major version is part of the name. */
export const DIFF_MIME_TYPE = "application/vnd.dynamo-explorer.diff.v1+json";
