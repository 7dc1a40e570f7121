/* eslint-disable */
/**
 * Types for the compile report, generated, do not edit.
 *
 * Source: compiler/schema/compile_report.v1.schema.json
 * Regenerate with `npm run build:schema`; CI runs `npm run check:schema`, which fails on any drift.
 */

/**
 * error > skipped > graph_break > recompile > empty > ok: the first that applies.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "FrameStatus".
 */
export type FrameStatus = 'ok' | 'graph_break' | 'recompile' | 'skipped' | 'error' | 'empty';
/**
 * 'dynamo_partial' (minor 3): what Dynamo had traced of a frame when it raised (fullgraph=True, a data-dependent error), from the exception's partial_fx_graph; never compiled, not counted among the graphs.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "GraphKind".
 */
export type GraphKind =
  'dynamo' | 'dynamo_partial' | 'aot_joint' | 'aot_forward' | 'aot_backward' | 'aot_inference';

/**
 * Everything TorchDynamo did while one notebook cell (or script) ran under Dynamo Explorer. Hand-edited: this file is the contract. Python validates against it (compiler/schema/__init__.py) and the TypeScript types in labextension/src/schema.ts are generated from it. Names reuse Dynamo's own identifiers verbatim (compile ids '0/0', guard kinds, FX ops, graph-break types).
 */
export interface CompileReport {
  schema_version: SchemaVersion;
  /**
   * torch.__version__, e.g. '2.13.0+cpu'.
   */
  torch_version: string;
  /**
   * platform.python_version().
   */
  python_version: string;
  /**
   * Device the compiled graphs ran on: 'cpu', 'cuda', ... ('cpu' when no graph saw a tensor).
   */
  device: string;
  /**
   * Backend name as given to torch.compile: 'inductor', 'eager', 'aot_eager', ...
   */
  backend: string;
  options: RunOptions;
  /**
   * 'calls': the cell ran as plain Python and each function and nn.Module it called was compiled as torch.compile(callee) would. 'cell': the cell's top level was compiled as one frame. 'all-frames': the cell ran as plain Python and every Python frame it ran was compiled, library frames included. 'frames': the name of 'all-frames' in reports of minor version 1 and earlier.
   */
  scope: 'calls' | 'cell' | 'all-frames' | 'frames';
  /**
   * Why this scope was used (for scope 'auto', what decided it); for 'calls', which callees were compiled and which ran as plain Python.
   */
  scope_reason: string;
  cell: CellSource;
  /**
   * Every frame Dynamo compiled (or tried to) during the run, in compile order.
   */
  frames: Frame[];
  graphs: Graph[];
  output_code: OutputCode[];
  symbols: Symbol[];
  shape_guards: ShapeGuard[];
  /**
   * Warnings and errors that torch's loggers emitted during the run (kept out of stderr).
   */
  logs: LogRecord[];
  /**
   * The exception the cell raised, or null.
   */
  error: null | ErrorInfo;
  /**
   * Problems of the capture itself (never of the user's code).
   */
  diagnostics: Diagnostic[];
  timings: RunTimings;
  /**
   * (minor 2) Scope 'calls': each distinct callee the cell's own code called, in first-call order, and whether Dynamo was started on it.
   */
  callees?: Callee[];
  /**
   * (minor 2) What torch._dynamo.utils.counters gained during the run, verbatim: category ('frames', 'stats', 'graph_break', 'resumes', ...) -> key ('total', 'ok', 'unique_graphs', a break reason, ...) -> count. The numbers Dynamo itself keeps, for comparing a run with plain torch.compile.
   */
  dynamo_counters?: {
    [k: string]: {
      [k: string]: number;
    };
  };
  /**
   * (minor 3) Every file the report names (frames' code, graph breaks and their stacks, FX and AOT nodes), with the label to show for it (a notebook cell as 'In [2]') and the code of the frames compiled from it.
   */
  sources?: SourceFile[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "SchemaVersion".
 */
export interface SchemaVersion {
  /**
   * Also carried by the MIME type application/vnd.dynamo-explorer.report.v1+json.
   */
  major: 1;
  minor: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "RunOptions".
 */
export interface RunOptions {
  backend: string;
  mode: string | null;
  dynamic: boolean | null;
  fullgraph: boolean;
  /**
   * 'frames': the name of 'all-frames' before minor version 2.
   */
  scope: 'auto' | 'calls' | 'cell' | 'all-frames' | 'frames';
  recompile_limit: number | null;
  /**
   * Which frames' modified bytecode was decompiled with depyf: 'user' (frames of the cell's and the user's files), 'all', 'none'. Absent before minor version 3 (then: all).
   */
  decompile?: 'user' | 'all' | 'none';
  /**
   * --fresh: Dynamo's automatic-dynamic memory of the code this run compiles (the cell's own code and every function or module it compiles) was forgotten before it compiled, so earlier runs changed nothing (compiler.reset_code). Absent before minor version 5 (then: false).
   */
  fresh?: boolean;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "CellSource".
 */
export interface CellSource {
  /**
   * Filename Dynamo and tracebacks use for the cell's code.
   */
  filename: string;
  /**
   * The cell text. Line N of this text is line N everywhere in the report when the filename is the cell's.
   */
  source: string;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Frame".
 */
export interface Frame {
  /**
   * As Dynamo prints it: '[0/0]' without brackets. Keep in sync with torch/_guards.py CompileId.__str__.
   */
  compile_id: string;
  /**
   * Restart count: the final trace of '0/0' after one restart is '0/0_1'.
   */
  attempt: number;
  status: FrameStatus;
  code: CodeInfo;
  /**
   * For a resume function: the frame whose modified bytecode created it.
   */
  parent_compile_id: string | null;
  original_bytecode: Instruction[];
  modified_bytecode: Instruction[];
  /**
   * depyf's decompilation of the modified code, or null when it failed (then see decompile_error and modified_bytecode).
   */
  decompiled_source: string | null;
  decompile_error: string | null;
  guards: Guard[];
  /**
   * The guard-manager tree exactly as TORCH_LOGS=guards prints it.
   */
  guard_tree: string | null;
  graph_breaks: GraphBreak[];
  recompile_reasons: RecompileReason[];
  /**
   * Ids of the graphs (dynamo and AOT) compiled for this frame.
   */
  graph_ids: number[];
  /**
   * compilation_metrics.fail_type, e.g. 'Unsupported'.
   */
  fail_type: string | null;
  fail_reason: string | null;
  /**
   * entire_frame_compile_time_s.
   */
  compile_time_s: number | null;
  phases: Phase[];
  /**
   * The inputs Dynamo's automatic dynamic shapes held as dynamic for this frame's code when the compile ended (torch._dynamo.pgo; TORCH_LOGS=dynamic says 'marking ... as dynamic (from automatic dynamic/PGO)'), with the compile that marked each. Absent before minor version 5.
   */
  automatic_dynamic?: AutomaticDynamic[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "CodeInfo".
 */
export interface CodeInfo {
  /**
   * co_name, e.g. 'toy_example' or 'torch_dynamo_resume_in_toy_example_at_4'.
   */
  name: string;
  filename: string;
  firstlineno: number;
  /**
   * A resume function Dynamo generated after a graph break.
   */
  is_resume: boolean;
  /**
   * The code was defined in the explored cell (its lines are cell lines).
   */
  in_cell: boolean;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Instruction".
 */
export interface Instruction {
  offset: number;
  opname: string;
  argrepr: string;
  /**
   * Source line this instruction belongs to (the cell's line for cell code).
   */
  line: number | null;
  is_jump_target: boolean;
  /**
   * Offset this instruction jumps to.
   */
  jump_target: number | null;
  /**
   * What a Dynamo-installed global names: a compiled graph, a resume function, ...
   */
  ref: null | NameRef;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "NameRef".
 */
export interface NameRef {
  kind: 'compiled_fn' | 'resume' | 'import' | 'builtins_dict';
  /**
   * The global, e.g. '__compiled_fn_1_<uuid>' or '__resume_at_30_2'.
   */
  name: string;
  /**
   * For compiled_fn: the dynamo graph it runs.
   */
  graph_id: number | null;
  /**
   * For resume: the frame the resume function was compiled as.
   */
  compile_id: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Guard".
 */
export interface Guard {
  /**
   * Guard kind as GuardBuilder names it: TENSOR_MATCH, ID_MATCH, TYPE_MATCH, EQUALS_MATCH, SEQUENCE_LENGTH, SHAPE_ENV, ... (free text: it varies by torch version).
   */
  type: string;
  /**
   * Source expression, e.g. L['a'] or G['torch'].
   */
  source: string;
  /**
   * The checks, as the guard tree prints them.
   */
  code: string[];
  /**
   * User line that introduced the guard (in code.filename of its frame).
   */
  line: number | null;
  /**
   * GuardSource: LOCAL, GLOBAL, ...
   */
  origin: string;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "GraphBreak".
 */
export interface GraphBreak {
  /**
   * e.g. 'GB0170' (torch/_dynamo/graph_break_registry.json).
   */
  gb_id: string | null;
  /**
   * e.g. 'Data-dependent branching'.
   */
  gb_type: string;
  /**
   * The 'Graph Break Reason' text Dynamo logged.
   */
  reason: string;
  explanation: string | null;
  hints: string[];
  doc_url: string | null;
  /**
   * Developer debug context.
   */
  context: string | null;
  filename: string | null;
  /**
   * Line of the break ('Graph break in user code at FILE:LINE').
   */
  line: number | null;
  user_stack: StackFrame[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "StackFrame".
 */
export interface StackFrame {
  filename: string;
  line: number | null;
  name: string;
  code?: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "RecompileReason".
 */
export interface RecompileReason {
  /**
   * The earlier compile whose guard failed.
   */
  failed_compile_id: string | null;
  /**
   * The failing guard, e.g. "tensor 'a' dtype mismatch. expected Float, actual Double".
   */
  reason: string;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Phase".
 */
export interface Phase {
  /**
   * dynamo_timed key, as torch._dynamo.utils.compile_times() names it: bytecode_tracing, build_guards, OutputGraph.call_user_compiler, compile_file, ... (nested phases overlap).
   */
  name: string;
  ms: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "AutomaticDynamic".
 */
export interface AutomaticDynamic {
  /**
   * The input as Dynamo names it, e.g. L['x'] or L['n'].
   */
  source: string;
  /**
   * A tensor (dims: its size dims marked dynamic) or an int (scalar).
   */
  kind: 'tensor' | 'scalar';
  /**
   * The size dims marked dynamic; empty for a scalar, or for a tensor whose number of dims changed.
   */
  dims: number[];
  /**
   * What Dynamo remembers now: 'size (?, 3)' ('?': dynamic) or '?' for a scalar.
   */
  now: string;
  /**
   * The compile of this run that marked it dynamic (its size or value differed from what an earlier compile of the same code saw); null: it was already dynamic when this run started, marked by an earlier run in this process (state carried between runs).
   */
  marked_in: string | null;
  /**
   * On the compile that marked it: what Dynamo had remembered before, e.g. 'size (2, 3)' or '2'; else null.
   */
  was: string | null;
  /**
   * On the compile that marked it: what Dynamo had remembered before came from an earlier run, not from a compile of this run.
   */
  was_from_earlier_run: boolean;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Graph".
 */
export interface Graph {
  id: number;
  compile_id: string;
  kind: GraphKind;
  /**
   * For dynamo graphs the __compiled_fn_N global that calls it.
   */
  name: string | null;
  nodes: Node[];
  /**
   * Readable code (print_readable).
   */
  code: string;
  /**
   * @deprecated
   * Deprecated (not written since minor 4): Graphviz DOT of the nodes, which the renderer builds itself (labextension/src/fxmodel.ts). Reports of minors 0-3 carry it.
   */
  dot?: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Node".
 */
export interface Node {
  name: string;
  /**
   * torch.fx Node.op.
   */
  op: 'placeholder' | 'get_attr' | 'call_function' | 'call_method' | 'call_module' | 'output';
  target: string;
  /**
   * repr of Node.args, nodes by name.
   */
  args: string;
  kwargs: string;
  users: string[];
  /**
   * Sizes; symbolic sizes as strings ('s97').
   */
  shape: (number | string)[] | null;
  dtype: string | null;
  line: number | null;
  filename: string | null;
  /**
   * Module paths from outermost to innermost, e.g. ['L[\'self\'].lin'].
   */
  nn_module_stack: string[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "OutputCode".
 */
export interface OutputCode {
  compile_id: string;
  kind: 'forward' | 'backward' | 'inference';
  /**
   * Inductor's generated wrapper module.
   */
  source: string;
  kernels: Kernel[];
  /**
   * Each kernel call of the wrapper (its kernels and extern kernels such as extern_kernels.addmm) with the FX nodes it computes, in source order; from inductor's provenance tracking and its 'Source Nodes' comments.
   */
  calls?: KernelCall[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Kernel".
 */
export interface Kernel {
  name: string;
  language: 'cpp' | 'triton' | 'python';
  source: string;
  /**
   * Names of the nodes of the Dynamo graph of the same compile_id (graphs[kind=dynamo].nodes[].name) this kernel computes, in graph order (none for a backward kernel).
   */
  nodes?: string[];
  /**
   * Names of the post-grad graph nodes this kernel computes: the nodes of the AOT graph of the output code's kind (aot_forward, aot_backward, aot_inference) where the names agree.
   */
  aot_nodes?: string[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "KernelCall".
 */
export interface KernelCall {
  /**
   * A kernel of kernels[] or an extern kernel (extern_kernels.addmm).
   */
  kernel: string;
  /**
   * 1-based line of the call in source.
   */
  line: number;
  /**
   * As Kernel.nodes, for this call.
   */
  nodes: string[];
  /**
   * As Kernel.aot_nodes, for this call.
   */
  aot_nodes: string[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Symbol".
 */
export interface Symbol {
  compile_id: string;
  /**
   * e.g. 's97' (hashed from its source, not sequential).
   */
  symbol: string;
  /**
   * e.g. L['x'].size()[0].
   */
  source: string;
  /**
   * Hint value when it was created.
   */
  value: string;
  /**
   * Value range, e.g. '[2, int_oo]'.
   */
  range: string;
  line: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ShapeGuard".
 */
export interface ShapeGuard {
  compile_id: string;
  /**
   * e.g. 'Eq(s97, s52)'.
   */
  expr: string;
  line: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "LogRecord".
 */
export interface LogRecord {
  level: string;
  logger: string;
  message: string;
  compile_id: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ErrorInfo".
 */
export interface ErrorInfo {
  /**
   * Exception class name.
   */
  type: string;
  message: string;
  /**
   * Cell line where it happened (from real_stack for Dynamo errors).
   */
  line: number | null;
  compile_id: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Diagnostic".
 */
export interface Diagnostic {
  /**
   * collector_failed: one artifact could not be captured; schema_mismatch: the report does not match this schema; shared_cache: a frame's cache is shared with the user's own compiled code; compile_failed: Dynamo could not compile a frame and ran it eagerly; recompile_limit: a frame hit recompile_limit; truncated: an artifact was too large to keep whole (the message says what was cut and where to see all of it).
   */
  kind:
    | 'collector_failed'
    | 'schema_mismatch'
    | 'shared_cache'
    | 'compile_failed'
    | 'recompile_limit'
    | 'unsupported_torch'
    | 'truncated';
  message: string;
  compile_id?: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "RunTimings".
 */
export interface RunTimings {
  /**
   * Wall time of the run, compiles included.
   */
  wall_s: number;
  /**
   * Sum of entire_frame_compile_time_s.
   */
  compile_s: number;
  /**
   * Time spent building this report after the run.
   */
  capture_s: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Callee".
 */
export interface Callee {
  /**
   * The callee as the cell wrote it, e.g. 'step' or 'model.generate'.
   */
  name: string;
  /**
   * The cell line of its first call.
   */
  line: number;
  /**
   * True: called through torch.compile's optimize(...); false: ran as plain Python.
   */
  compiled: boolean;
  /**
   * e.g. 'a function you defined', 'an nn.Module', 'library code (transformers...)', 'a class (construction runs plain)'.
   */
  why: string;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "SourceFile".
 */
export interface SourceFile {
  /**
   * The name the report's filename fields use (co_filename).
   */
  filename: string;
  /**
   * What to show for it: 'In [2]' for a notebook cell (as IPython labels it), 'transformers/generation/utils.py' for an installed module (relative to its sys.path entry), a path relative to the working directory for the user's own file.
   */
  label: string;
  /**
   * 'cell': the code that ran (its text is report.cell); 'notebook-cell': an earlier cell of the notebook; 'file': the user's own file; 'library': an installed package or the standard library (read-only).
   */
  kind: 'cell' | 'notebook-cell' | 'file' | 'library';
  /**
   * Code of this file, 1-based lines from first_line: a notebook cell's whole text; for a file, the source of each function Dynamo compiled a frame of, merged where they overlap. Empty for the 'cell' kind and for files only named by a line.
   */
  excerpts: SourceExcerpt[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "SourceExcerpt".
 */
export interface SourceExcerpt {
  first_line: number;
  /**
   * The lines first_line, first_line + 1, ... joined with newlines.
   */
  text: string;
}
/**
 * The stored form of a big report (minor 4; compiler/encoding.py, labextension/src/encoding.ts): a notebook output or a standalone page whose report's JSON is larger than compiler.encoding.ENCODE_ABOVE bytes holds this instead of the report. The MIME type is the same; readers tell the two apart by `encoding`.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "EncodedReport".
 */
export interface EncodedReport {
  schema_version: SchemaVersion1;
  /**
   * How `data` holds the report: base64 of the gzip of its UTF-8 JSON.
   */
  encoding: 'gzip+base64';
  /**
   * Size of the report's JSON once decoded.
   */
  bytes: number;
  data: string;
}
/**
 * The report's own schema_version, in the clear so a reader can refuse an unknown major before decoding.
 */
export interface SchemaVersion1 {
  /**
   * Also carried by the MIME type application/vnd.dynamo-explorer.report.v1+json.
   */
  major: 1;
  minor: number;
}

/** The schema version this renderer was generated from (x-dynamo-explorer.version). */
export const SCHEMA_VERSION = { major: 1, minor: 5 } as const;

/** The MIME type of a report bundle; the major version is part of the name. */
export const MIME_TYPE = "application/vnd.dynamo-explorer.report.v1+json";

/** The schema majors this renderer reads (SchemaVersion.major's enum). */
export const SUPPORTED_MAJORS: readonly number[] = [1];

/** The panes of the report view, in display order: their `data-pane` names (x-dynamo-explorer.panes). */
export const PANES = ["header", "frames", "source", "original-bytecode", "modified-bytecode", "guards", "graph-breaks", "fx-graph", "code"] as const;

/** The name of a pane (its `data-pane` attribute). */
export type PaneName = (typeof PANES)[number];

/** The title each pane shows (x-dynamo-explorer.panes[].title). */
export const PANE_TITLES: Readonly<Record<PaneName, string>> = {
  "header": "Dynamo Explorer",
  "frames": "Frames",
  "source": "Source",
  "original-bytecode": "Original bytecode",
  "modified-bytecode": "Modified bytecode",
  "guards": "Guards",
  "graph-breaks": "Graph breaks",
  "fx-graph": "FX graph",
  "code": "Graph code and output code"
};
