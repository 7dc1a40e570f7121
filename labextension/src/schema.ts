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
 * (minor 6) What part of torch.compile a phase belongs to: 'dynamo' (the frame compile, bytecode tracing, restarts), 'guards' (build_guards), 'backend' (backend_compile, entire_backward_compile), 'aot' (AOTAutograd: metadata, joint graph, partition, joint-graph passes), 'inductor' (lowering, scheduling, code generation, pre/post-grad passes), 'compile' (compiling and loading the generated code: compile_file, async_compile.*, PyCodeCache.load_by_key_path, autotuning), 'cache' (cache keys, lookups, loads and saves), 'other'.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "PhaseKind".
 */
export type PhaseKind =
  'dynamo' | 'guards' | 'backend' | 'aot' | 'inductor' | 'compile' | 'cache' | 'other';
/**
 * 'export' (minor 22): the graph of an ExportedProgram (ATen operators after export's own decompositions), export's and not a compile's: its compile_id is null and its ExportCall names it (graph_id); not counted among the graphs. 'ddp_split_graph' and 'ddp_split_child' (minor 12): DDPOptimizer's split graph, which calls the pieces in turn, and each piece (named submod_0, ... as DDPOptimizer names it) the backend compiled in place of the whole Dynamo graph (ddp_splits). 'dynamo_partial' (minor 3): what Dynamo had traced of a frame when it raised (fullgraph=True, a data-dependent error), from the exception's partial_fx_graph; never compiled, not counted among the graphs.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "GraphKind".
 */
export type GraphKind =
  | 'dynamo'
  | 'dynamo_partial'
  | 'ddp_split_graph'
  | 'ddp_split_child'
  | 'aot_joint'
  | 'aot_forward'
  | 'aot_backward'
  | 'aot_inference'
  | 'export';
/**
 * 'export' (minor 22): the graph of an ExportedProgram (ATen operators after export's own decompositions), export's and not a compile's: its compile_id is null and its ExportCall names it (graph_id); not counted among the graphs. 'ddp_split_graph' and 'ddp_split_child' (minor 12): DDPOptimizer's split graph, which calls the pieces in turn, and each piece (named submod_0, ... as DDPOptimizer names it) the backend compiled in place of the whole Dynamo graph (ddp_splits). 'dynamo_partial' (minor 3): what Dynamo had traced of a frame when it raised (fullgraph=True, a data-dependent error), from the exception's partial_fx_graph; never compiled, not counted among the graphs.
 */
export type GraphKind1 =
  | 'dynamo'
  | 'dynamo_partial'
  | 'ddp_split_graph'
  | 'ddp_split_child'
  | 'aot_joint'
  | 'aot_forward'
  | 'aot_backward'
  | 'aot_inference'
  | 'export';
/**
 * The worst of its outputs' verdicts (not_comparable when none could be compared).
 */
export type NumericsVerdict =
  'matches' | 'differs_no_worse' | 'worse_than_eager' | 'not_comparable';
/**
 * matches: within the dtype's tolerance of eager; differs_no_worse: beyond it, but no further from float64 than eager is (expected: reduced precision kept in float32, another order of a reduction); worse_than_eager: further from float64 than eager, beyond torch's rule (a bug); not_comparable: not checked, and why.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "NumericsVerdict".
 */
export type NumericsVerdict1 =
  'matches' | 'differs_no_worse' | 'worse_than_eager' | 'not_comparable';
/**
 * How the call traced: strict (through Dynamo), non_strict (Python runs, export traces the tensors), draft (draft_export: non-strict, every failure turned into an assumption and reported).
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportMode".
 */
export type ExportMode = 'strict' | 'non_strict' | 'draft';
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportOutcome".
 */
export type ExportOutcome = 'exported' | 'failed';
/**
 * data_dependent: a guard (a branch, a size) on a value computed from tensor data; constraint_violation: a Dim's range against what the trace required; unsupported: an op or construct export cannot trace; user_error: a use export refuses.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportFailureKind".
 */
export type ExportFailureKind =
  'data_dependent' | 'constraint_violation' | 'unsupported' | 'user_error' | 'other';
/**
 * static: a dimension export specialized to the example's size; range: a dynamic dimension's symbol within its range_constraints; equal: a dimension that must equal another's (one symbol for both); guard: a shape guard the program kept (ExportedProgram._guards_code).
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportCheckKind".
 */
export type ExportCheckKind = 'static' | 'range' | 'equal' | 'guard';

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
   * Backend name as given to torch.compile: 'inductor', 'eager', 'aot_eager', ...; scope 'watch' (minor 14): the backends the code's own compiles used, in first-use order ('eager, aot_eager'), or 'none (nothing was compiled)'.
   */
  backend: string;
  options: RunOptions;
  /**
   * 'watch' (minor 14): the code compiled itself (its own torch.compile, model.compile, explain, set_stance, compiled autograd, ... calls); it ran as plain Python, nothing was added, and every compile Dynamo made while it ran is reported as it happened, with the user's own backends. 'trace' (minor 10): nothing ran here; the report was read from torch's structured trace (the trace field says which log). 'calls': the cell ran as plain Python and each function and nn.Module it called was compiled as torch.compile(callee) would. 'cell': the cell's top level was compiled as one frame. 'all-frames': the cell ran as plain Python and every Python frame it ran was compiled, library frames included. 'frames': the name of 'all-frames' in reports of minor version 1 and earlier.
   */
  scope: 'watch' | 'calls' | 'cell' | 'all-frames' | 'frames' | 'trace';
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
   * (minor 8) Every torch._dynamo.reset() (torch.compiler.reset()) the cell made while it ran, in order.
   */
  resets?: DynamoReset[];
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
  /**
   * (minor 6) --profile: what the run cost, measured by torch.profiler as the cell ran (not a second run). Null or absent without --profile.
   */
  profile?: null | Profile;
  /**
   * (minor 6) --compare-eager: the same cell run a second time without Dynamo, and the speedup. Null or absent without --compare-eager.
   */
  eager_baseline?: null | EagerBaseline;
  /**
   * (minor 7) The remedies on offer for this run's graph breaks and recompiles, each one that --try NAME (or the Try a fix pane's button) re-runs the cell with. Empty when nothing has a known remedy.
   */
  fixes?: Fix[];
  /**
   * (minor 7) --try NAME: this run applied one fix; what it changed, and the run without it (before) vs this run (after). Null or absent without --try.
   */
  try_fix?: null | TryFix;
  /**
   * (minor 7) How a call of each code object Dynamo compiled in this run is dispatched (depyf's transformed_<fn>): its cache entries in the order Dynamo tries them at the next call, each with the guards that tell it from its neighbours, then what a call that matches none does. One per code, in the order the run first compiled them; read from Dynamo's cache at the end of the run (_debug_get_cache_entry_list).
   */
  dispatch?: DispatchCode[];
  /**
   * (minor 7) --trace-steps [FRAME]: Dynamo's symbolic execution of one compiled frame, instruction by instruction (compiler/collectors/trace_steps/trace_steps.py, [Note: trace steps]). Null or absent without --trace-steps.
   */
  trace_steps?: null | TraceSteps;
  /**
   * (minor 8) CUDA graphs (mode reduce-overhead or max-autotune, config triton.cudagraphs): for each graph inductor compiled with CUDA graphs asked for, whether it was recorded, skipped (inductor's own reason) or re-recorded, its recordings and, with --profile, its replays and eager runs (compiler/collectors/cudagraphs/cudagraphs.py, [Note: cudagraphs]). In compile order; empty when no graph asked for CUDA graphs.
   */
  cudagraphs?: CudaGraph[];
  /**
   * (minor 12) The Dynamo graphs DDPOptimizer split at DDP's bucket boundaries (a frame compiled inside a DistributedDataParallel forward, optimize_ddp 'ddp_optimizer'): the split graph and each piece (submod_0, ...) the backend got, with its parameters. Empty when nothing was split (one bucket, or no DDP). [Note: DDP splits] in compiler/collectors/ddp_splits.py.
   */
  ddp_splits?: DdpSplit[];
  /**
   * (minor 9) What the report holds only in part (each with a 'truncated' diagnostic): a frame's guards beyond the first 5,000 and a guard tree beyond 1 MB. The process that ran the cell keeps each whole under its key while it lives (a Jupyter kernel: kernel_ext/parts.py), and a view with a kernel to ask loads it on request; a saved report without its kernel shows the part it holds.
   */
  parts_cut?: PartCut[];
  /**
   * (minor 10) Set when the report was read from torch's structured trace (dynamo-explorer open, %dynamo_open, open_trace: scope 'trace'), not captured from a run: which logs, which rank, what the trace does not hold, each compile's cache decisions. Absent or null for a captured run.
   */
  trace?: null | TraceSource;
  /**
   * (minor 10) Set when the report is one of several ranks' (a multi-rank trace, or dynamo-explorer run --nproc): every rank's compiles side by side, the straggler, and the first event where the ranks diverge (compiler/ranks.py). The rest of the report is shown_rank's. Absent or null for one process.
   */
  ranks?: null | RanksView;
  /**
   * (minor 19) --check-numerics [N]: each compiled graph's outputs against the same Dynamo graph run eagerly and in float64 ([Note: numerics] in compiler/collectors/numerics/numerics.py). Absent or null without the option.
   */
  numerics?: null | Numerics;
  /**
   * (minor 21) Each torch.export call the run made (torch.export.export, strict or not, torch.export.draft_export, torch._dynamo.export), in order, as it was made and how it ended ([Note: export calls] in compiler/collectors/exports/exports.py). Absent or empty without one.
   */
  exports?: ExportCall[];
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
   * 'frames': the name of 'all-frames' before minor version 2. 'trace' (minor 10): a report read from a structured trace.
   */
  scope: 'auto' | 'calls' | 'cell' | 'all-frames' | 'frames' | 'trace';
  recompile_limit: number | null;
  /**
   * Which frames' modified bytecode was decompiled with depyf: 'user' (frames of the cell's and the user's files), 'all', 'none'. Absent before minor version 3 (then: all).
   */
  decompile?: 'user' | 'all' | 'none';
  /**
   * --fresh: Dynamo's automatic-dynamic memory of the code this run compiles (the cell's own code and every function or module it compiles) was forgotten before it compiled, so earlier runs changed nothing (compiler.reset_code). Absent before minor version 5 (then: false).
   */
  fresh?: boolean;
  /**
   * (minor 6) --profile: the run was profiled as it happened (report.profile).
   */
  profile?: boolean;
  /**
   * (minor 6) --compare-eager: the cell ran a second time without Dynamo, for report.eager_baseline.
   */
  compare_eager?: boolean;
  /**
   * (minor 7) --try NAME: the fix (fixes[].name) this run applied, for report.try_fix.
   */
  try_fix?: string | null;
  /**
   * (minor 7) --trace-steps [FRAME]: the frame whose symbolic execution was recorded (a compile id or a function name; '' the first frame compiled), for report.trace_steps; null without the option.
   */
  trace_steps?: string | null;
  /**
   * (minor 7) --trace-steps-max: the most instructions report.trace_steps keeps.
   */
  trace_steps_max?: number;
  /**
   * (minor 7) --decisions: Dynamo's inline / skip decision for every traced call was recorded (frames[].decisions; empty without it).
   */
  decisions?: boolean;
  /**
   * (minor 8) --override-compile-options: what the cell had compiled with its own torch.compile(...) was compiled with the run's options; without it, with the options it was given (callees[].compile).
   */
  override_compile_options?: boolean;
  /**
   * (minor 19) --check-numerics [N]: each compiled graph's first N calls were checked against eager and float64 (report.numerics); 0 without the option.
   */
  check_numerics?: number;
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
   * As Dynamo prints it: '[0/0]' without brackets (keep in sync with torch/_guards.py CompileId.__str__); after the run's n-th torch._dynamo.reset() that followed a compile, '@n' follows it (minor 14: Dynamo numbers from 0/0 again, and each id of a report names one frame; compiler/compile_ids.py).
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
  /**
   * (minor 24) How many guards the frame has: the rows of guards when the report holds them all, else the whole part's (parts_cut); the one count every pane shows. Null: a report older than minor 24 (count guards).
   */
  guard_count?: number | null;
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
  /**
   * (minor 7) With --decisions (empty without it: opt-in, options.decisions): every call Dynamo met while tracing this frame (its last attempt, plus the call that broke the attempt before), in call order, as a tree (parent): what Dynamo decided for the callee (inline, skip, disabled, allow_in_graph, ...) and the rule that decided it. Calls to plain methods that inlined nothing and broke nothing are left out.
   */
  decisions?: Decision[];
  /**
   * (minor 16) The compile's cache story in one line, in the engine's words (compiler/collectors/caches/cache_story.py cache_line): 'AOT miss (full_miss) → inductor miss (full_miss): gm differs from [0/0@1]'; null without a cache record.
   */
  cache_story?: string | null;
  /**
   * (minor 16) This compile's cache story, in the order torch decided: AOTAutograd's cache, then inductor's FX graph cache for each graph it compiled (or the order torch logged them).
   */
  caches?: CacheDecision[];
  /**
   * (minor 12) compilation_metrics.start_time: when the compile began, in seconds since the epoch by the clock of the machine that compiled (the ranks' time axis); null when unknown and in golden reports.
   */
  start_time?: number | null;
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
   * The guard's kind as the guard-manager tree names its leaf (TORCH_LOGS=guards): TENSOR_MATCH, ID_MATCH, TYPE_MATCH, EQUALS_MATCH, DICT_CONTAINS, LAMBDA_GUARD, GLOBAL_STATE, ...; before minor 26 (and where a frame's tree is gone) as GuardBuilder names the exported guard (SEQUENCE_LENGTH, SHAPE_ENV, ...). Free text: it varies by torch version.
   */
  type: string;
  /**
   * Source expression, e.g. L['a'] or G['torch'].
   */
  source: string;
  /**
   * The checks, as the guard tree prints them: one, a leaf's (an exported guard's may hold several).
   */
  code: string[];
  /**
   * User line that introduced the guard (in code.filename of its frame).
   */
  line: number | null;
  /**
   * GuardSource: LOCAL, GLOBAL, LOCAL_UNSPECIALIZED_NN_MODULE, ...; GLOBAL_STATE for a root guard (no source).
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
  /**
   * (minor 6) Every guard of that cache entry that failed for the call that recompiled, each with what the entry expected and what the call brought, evaluated when Dynamo decided to recompile (reason names only the first one Dynamo's check met). Empty when they could not be evaluated (failures_note says why); absent before minor 6.
   */
  failures?: GuardFailure[];
  /**
   * (minor 6) What failures leaves out, or why it is empty: an entry of the user's own torch.compile (Dynamo gives it no guard_fail_fn: only reason is known), checks whose value no longer exists, a cap on a very large guard set. Null when failures is complete.
   */
  failures_note?: string | null;
}
/**
 * (minor 6) One failing guard of an old cache entry (compiler/collectors/guards/guard_failures.py): a check of the entry's guard tree evaluated against the values of the call that recompiled.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "GuardFailure".
 */
export interface GuardFailure {
  /**
   * Dynamo's kind of the leaf guard, verbatim: TENSOR_MATCH, ID_MATCH, TYPE_MATCH, EQUALS_MATCH, LENGTH_CHECK, TRUE_MATCH, GLOBAL_STATE, LAMBDA_GUARD (a shape guard), ...
   */
  guard_type: string;
  /**
   * The guarded value as Dynamo names it (L['x'], G['cfg'].flag, L['xs'][0]); '' for a root guard (global state, shape guards).
   */
  source: string;
  /**
   * What failed when one guard checks several things: a tensor's type, dispatch_keys, dtype, device, requires_grad, size or stride (TENSOR_MATCH: one failure each), a field of the global state (GLOBAL_STATE: grad_mode, num_threads, ...); null for a guard with one check.
   */
  property: string | null;
  /**
   * The guard's check as Dynamo wrote it (its code part without the user-code comment), e.g. "L['n'] == 2", "len(L['xs']) == 2", 'check_tensor(...)'.
   */
  check: string;
  /**
   * What the entry holds: the constant side of a comparison ('2', '>= 2'), the property's value in the entry ('torch.float32', '[2, 3]'), the object or type it ID-matched; else the check itself.
   */
  expected: string;
  /**
   * What the call brought: the value of the checked expression ('3'), the property now ('torch.float64'), the object now with its id; null when only Dynamo's own reason is known.
   */
  actual: string | null;
  /**
   * The user line the guard came from, in the frame's own file (the guard's comment).
   */
  line: number | null;
  /**
   * This is the failure Dynamo's own reason names (its check stops at the first failing guard).
   */
  in_reason: boolean;
  /**
   * (minor 15) What failed, in a few words (compiler/summary.py failure_what): '<property> mismatch' for a tensor property ('dtype mismatch'), '<property> changed' for a field of the global state ('grad_mode changed'), 'is another object' (ID_MATCH), 'has another type' (TYPE_MATCH), else the check ("L['n'] == 2"). Absent in a report before minor 15.
   */
  what?: string;
}
/**
 * One timed phase of the frame's compile, or one instant event (a cache lookup's outcome). Since minor 6 each entry is one occurrence, in tree order (a phase before the phases inside it, siblings by start), from Dynamo's ChromiumEventLogger (the calls tlparse's Perfetto view is built from): the frame's own compile and, for a training step, the lazy backward compile AOTAutograd runs at the first backward (LAZY_BACKWARD, under the forward's compile id). Before minor 6: one entry per dynamo_timed key, durations summed, no nesting (start_ms, parent, event, label, kind, instant absent).
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Phase".
 */
export interface Phase {
  /**
   * dynamo_timed key, as torch._dynamo.utils.compile_times() names it: bytecode_tracing, build_guards, OutputGraph.call_user_compiler, compile_fx_inner, compile_file, ...; for an event timed only as a chromium event (the outermost 'dynamo') or an instant one (fx_graph_cache_miss), its event name.
   */
  name: string;
  /**
   * Duration in milliseconds (0 for an instant event).
   */
  ms: number;
  /**
   * (minor 6) Start, in milliseconds after the first event of this compile id (the forward compile's 'dynamo'); a lazy backward compile starts after the forward ran.
   */
  start_ms?: number;
  /**
   * (minor 6) Index in this frame's phases of the phase this one runs inside; null for a top-level phase ('dynamo', 'entire_backward_compile').
   */
  parent?: number | null;
  /**
   * (minor 6) The chromium event name when it differs from name (dynamo_timed's phase_name): backend_compile for OutputGraph.call_user_compiler, inductor_compile for compile_fx_inner, entire_frame_compile for _compile.compile_inner, ...
   */
  event?: string | null;
  /**
   * (minor 6) A readable label for people: 'tracing the bytecode', 'AOTAutograd', 'C++ compile', 'FX graph cache miss', ... (the name stays Dynamo's own).
   */
  label?: string;
  kind?: PhaseKind;
  /**
   * (minor 6) An instant event with no duration: a cache lookup's outcome (fx_graph_cache_hit/miss/bypass/disabled, autograd_cache_hit/miss/bypass) at the lookup's time, or an automatic_dynamic decision (an input Dynamo marks dynamic while tracing).
   */
  instant?: boolean;
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
 * via the `definition` "Decision".
 */
export interface Decision {
  /**
   * The callee's qualified name (for an inlined call, the code Dynamo inlined: 'M.forward' for a module call).
   */
  name: string;
  /**
   * The callee's __module__ ('copy', 'torch.nn.functional'), when it has one.
   */
  module: string | null;
  /**
   * The file the callee is defined in; null for a C function.
   */
  filename: string | null;
  /**
   * The callee's def line (co_firstlineno).
   */
  line: number | null;
  /**
   * Dynamo's decision: inline (traced into), skip (SkipFunctionVariable or an inline refused by trace_rules: not traced; a graph break unless Dynamo could evaluate it on constants), disabled (torch._dynamo.disable: a graph break, runs eagerly), allow_in_graph (one node in the graph, not traced into), in_graph (a torch function put in the graph as one node), builtin (a Python builtin Dynamo models itself), polyfill (Dynamo traces its own Python version), other (another VariableTracker: see variable).
   */
  decision:
    | 'inline'
    | 'skip'
    | 'disabled'
    | 'allow_in_graph'
    | 'in_graph'
    | 'builtin'
    | 'polyfill'
    | 'other';
  /**
   * The rule that decided it, as Dynamo words it: trace_rules' reason ('inlined by default', 'file matches BUILTIN_INLINE_WHEN_CALLED (...)', 'file is under skip directory (...)'), 'torch._dynamo.disable', 'allow_in_graph (...)', the polyfill's name or the VariableTracker class.
   */
  rule: string;
  /**
   * The callee's VariableTracker class (UserFunctionVariable, SkipFunctionVariable, TorchInGraphFunctionVariable, ...).
   */
  variable: string;
  /**
   * The file of the call (the caller's code).
   */
  call_filename: string;
  /**
   * The line of the call in call_filename: for a call in the frame's own code or an inlined user function, the user line.
   */
  call_line: number | null;
  /**
   * Dynamo's inline depth of the caller: 0 for a call in the frame's own code.
   */
  depth: number;
  /**
   * Index in this list of the call Dynamo was inlining when it met this one; null at the frame's own level.
   */
  parent: number | null;
  /**
   * ok: traced on; graph_break: this call broke the graph (see graph_break); raised: it raised inside Dynamo, which handled it.
   */
  outcome: 'ok' | 'graph_break' | 'raised';
  /**
   * Index in this frame's graph_breaks of the break this call caused (or led to, for the calls that were inlining it).
   */
  graph_break: number | null;
  /**
   * What the call raised: the graph break's gb_type, or the exception class.
   */
  error: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "CacheDecision".
 */
export interface CacheDecision {
  compile_id: string | null;
  /**
   * fx_graph: inductor's FX graph cache; aotautograd: AOTAutograd's cache (torch's artifact names, fx_graph_cache_hit, aotautograd_cache_miss, ...).
   */
  cache: 'fx_graph' | 'aotautograd';
  status: 'hit' | 'miss' | 'bypass';
  /**
   * The cache key, when the trace gives it.
   */
  key: string | null;
  /**
   * A bypass's reason (the trace's 'reason' or 'cache_bypass_reason').
   */
  reason: string | null;
  /**
   * (minor 16) torch's cache_status_detailed: 'full_miss' (no entry under the key), 'guard_miss' (entries, none whose guards held), 'hit'; null where torch gives none (a bypass).
   */
  detail?: string | null;
  /**
   * (minor 16) A bypass's exception type (cache_bypass_exception_type: BypassAOTAutogradCache, BypassFxGraphCache).
   */
  exception_type?: string | null;
  /**
   * (minor 16) A hit's compile time saved, as torch measured it when the entry was made (time_saved_ns, time_saved_ms).
   */
  time_saved_ms?: number | null;
  /**
   * (minor 16) How many components of the key torch recorded with their hashes (AOTAutograd's only when its logger was at DEBUG: the explorer turns it on for the run, quietly); null: none recorded.
   */
  components?: number | null;
  /**
   * (minor 16) A miss's nearest earlier entry of the same code and cache (its compile id), whose key components 'differs' is against; null: none earlier, or no components to compare.
   */
  compared_with?: string | null;
  /**
   * (minor 16) A miss: each key component whose hash differs from compared_with's (compared by hash, never by text: a text holding an address differs on every run, its hash does not), in the key's order.
   */
  differs?: CacheDifference[];
  /**
   * (minor 17) One short hash (16 characters) a part of the key, by the part's name (the components' names before their '[': 'gm', 'example_inputs', 'fx_kwargs', 'inductor_config', 'torch_version', ...), in the key's order: what another run's entry is compared with (dynamo-explorer diff); null: no components recorded.
   */
  hashes?: {
    [k: string]: string;
  } | null;
  /**
   * (minor 18) A guard_miss: the guards of the last entry torch tried under the key (cache_status_guard_expr), torch's L['t0'], L['t1'], ... (the graph's backed SymInt inputs, in order) written as the frame's symbols where known; null otherwise.
   */
  guard_expr?: string | null;
  /**
   * (minor 18) The hints guard_expr was evaluated with: this compile's value of each symbol it names (create_symbol's), by symbol; null: none known.
   */
  guard_hints?: {
    [k: string]: number;
  } | null;
  /**
   * (minor 18) The conjuncts of guard_expr that are false for guard_hints, in its words: why the entry was not used; []: every conjunct that could be evaluated holds; null: none could be (no hints, or a function the explorer does not evaluate).
   */
  guard_failed?: string[] | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "CacheDifference".
 */
export interface CacheDifference {
  /**
   * The key component as torch names it: 'gm' (the graph), 'example_inputs[0]', 'fx_kwargs[cpp_wrapper]', 'inductor_config[...]', 'torch_version', ...; 'added' and 'removed' components too.
   */
  component: string;
  /**
   * Its hash in compared_with's key; null: the component is new.
   */
  before: string | null;
  /**
   * Its hash in this key; null: the component is gone.
   */
  after: string | null;
  /**
   * The lines of its text that changed, '- ' before and '+ ' after (at most 12).
   */
  lines: string[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Graph".
 */
export interface Graph {
  id: number;
  /**
   * The compile that made the graph; null for a graph of kind 'export' (minor 22).
   */
  compile_id: string | null;
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
   * Deprecated (not written since minor 4): Graphviz DOT of the nodes, which the renderer builds itself (labextension/src/graph/fxmodel.ts). Reports of minors 0-3 carry it.
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
  /**
   * The user line where the symbol was specialised (specialized_to), else the first shape guard on its source.
   */
  line: number | null;
  /**
   * (minor 6) The constant ShapeEnv replaced this symbol with (ShapeEnv.replacements): the dimension is no longer dynamic, the compiled code holds for this value only and the frame's TENSOR_MATCH checks it as a static size. Null: not specialised.
   */
  specialized_to?: string | null;
  /**
   * (minor 6) The reason ShapeEnv gave when it replaced the symbol (ShapeEnv._set_replacement, verbatim): 'range_refined_to_singleton' (a guard left one value, e.g. `if x.shape[0] == 3`, `range(x.shape[0])`), 'solve', ...
   */
  specialization_reason?: string | null;
  /**
   * (minor 6) The shape guard that pinned it, with its sources (ShapeEnv.guards, printed as Dynamo prints shape guards), e.g. "L['x'].size()[0] == 3".
   */
  specialization_guard?: string | null;
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
  /**
   * The user line of this guard (its own leaf in the guard tree; since minor 6, before: the line of the frame's SHAPE_ENV guard).
   */
  line: number | null;
  /**
   * (minor 6) Dynamo's note on why the guard exists when it gives one, verbatim: a 0/1 specialization ('the guard itself is not due user code but due to 0/1 specialization in the framework; ...'), duck sizing ('duck sizing added this equality because these variables had the same size 4 ...').
   */
  note?: string | null;
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
   * options_not_applied: (minor 14) scope 'watch' applied none of the run's compile options given (--backend, --mode, --dynamic, --fullgraph): the code's own torch.compile calls chose theirs; collector_failed: one artifact could not be captured; schema_mismatch: the report does not match this schema; shared_cache: a frame's cache is shared with the user's own compiled code; compile_failed: Dynamo could not compile a frame and ran it eagerly; recompile_limit: a frame hit recompile_limit; truncated: an artifact was too large to keep whole (the message says what was cut and where to see all of it); eager_baseline_failed: (minor 6) the --compare-eager plain run raised, so no speedup is reported.
   */
  kind:
    | 'collector_failed'
    | 'schema_mismatch'
    | 'shared_cache'
    | 'compile_failed'
    | 'recompile_limit'
    | 'unsupported_torch'
    | 'truncated'
    | 'eager_baseline_failed'
    | 'options_not_applied';
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
 * via the `definition` "DynamoReset".
 */
export interface DynamoReset {
  /**
   * The cell line that reset Dynamo (its own call, or the call of the cell that led to it); null when the cell's code was not on the stack.
   */
  line: number | null;
  /**
   * Frames this run had compiled before the reset.
   */
  frames_before: number;
  /**
   * (minor 14) When the run had compiled since its previous such reset: n, the '@n' the compile ids after this reset carry (Dynamo numbers from 0/0 again; '0/0@n' is Dynamo's [0/0] after it); null otherwise (the ids after it stay as Dynamo gives them).
   */
  epoch: number | null;
  /**
   * @deprecated
   * Minor 8 to 13 only (not written since): the frame id the explorer made Dynamo's numbering go on from.
   */
  next_frame_id?: number | null;
  /**
   * The sentence the views show.
   */
  message: string;
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
   * e.g. 'a function you defined', 'an nn.Module', 'library code (transformers...)', 'a class (construction runs plain)', 'a coroutine function (async def): runs as plain Python ...'.
   */
  why: string;
  /**
   * (minor 8) A compiled callee: the options it was compiled with. Those of the user's own torch.compile(...) when it was the result of one (origin 'torch.compile'), else the run's (origin 'run').
   */
  compile?: null | CompileSettings;
  /**
   * (minor 8) A compiled callee the cell handed to another thread: the API that runs it there ('threading.Thread', 'ThreadPoolExecutor.submit', 'asyncio.to_thread', ...); it was compiled where that thread called it.
   */
  thread_api?: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "CompileSettings".
 */
export interface CompileSettings {
  /**
   * 'torch.compile': the user's own torch.compile(...) (or model.compile(...)) gave them; 'run': the %%dynamo line's (or the CLI's) options.
   */
  origin: 'torch.compile' | 'run';
  /**
   * The backend's name, as torch.compile names it ('inductor', 'aot_eager', a custom backend's function name).
   */
  backend: string;
  mode: string | null;
  dynamic: boolean | null;
  fullgraph: boolean;
  /**
   * torch.compile(options=...) (inductor config values), beyond what the mode implies.
   */
  options: {} | null;
  recompile_limit: number | null;
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
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Profile".
 */
export interface Profile {
  /**
   * How the numbers were measured and counted, in words (shown to the user).
   */
  method: string;
  /**
   * 'cpu', or 'cuda' when device (kernel) time was recorded.
   */
  device: string;
  /**
   * The profiled run, compiles included (the profiler's own cost included).
   */
  wall_ms: number;
  /**
   * Time inside compiled graphs: forward graph calls (graphs[]) plus compiled backward calls (backward.compiled_ms), less the compile work inside them (a first call's lazy compile and autotuning, which counts in compile_ms). Follows the cell's thread; (minor 8) calls on another thread count where the cell's thread was neither in a graph nor compiling, each moment once.
   */
  compiled_ms: number;
  /**
   * Everything else that was not compiling: the cell's own Python, eager ATen ops, graph-break code, Dynamo's glue and cache lookups (wall_ms - compiled_ms - compile_ms).
   */
  eager_ms: number;
  /**
   * Time Dynamo and the backend spent compiling during the run (frames and lazy backward compiles; (minor 8) the compile work inside graph calls, and compiles on another thread while the cell's thread waited).
   */
  compile_ms: number;
  /**
   * Time in Dynamo's cache lookups (the profiler's 'TorchDynamo Cache Lookup': guard evaluation before each call of a compiled code), part of eager_ms.
   */
  cache_lookup_ms: number;
  /**
   * How many cache lookups ran.
   */
  cache_lookups: number;
  /**
   * Every compiled graph that ran, the most time first.
   */
  graphs: GraphProfile[];
  /**
   * Every cache entry (compile id) that ran, in compile order.
   */
  entries: EntryProfile[];
  /**
   * Eager time outside graphs, attributed to what caused it, the most time first.
   */
  eager: EagerGap[];
  coverage: Coverage;
  backward: BackwardProfile;
  /**
   * (minor 8) Device time of the kernels launched outside any graph call, compiled backward and compile work (the cell's own eager CUDA ops); null without device activity.
   */
  eager_device_ms?: number | null;
  /**
   * (minor 8) Device time of the kernels launched by compile work (inductor's autotuning: its benchmark runs and L2-cache flushes), in graph calls or not; null without device activity.
   */
  compile_device_ms?: number | null;
  /**
   * (minor 8) The kernels of eager_device_ms, the most time first (at most 20).
   */
  eager_kernels?: KernelProfile[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "GraphProfile".
 */
export interface GraphProfile {
  /**
   * The Dynamo graph (graphs[].id); null when the report holds no graph for it.
   */
  graph_id: number | null;
  compile_id: string;
  /**
   * How many times the compiled graph was called.
   */
  calls: number;
  /**
   * Host time inside the compiled graph's callable (AOT runtime wrappers included), summed over calls.
   */
  total_ms: number;
  mean_ms: number;
  /**
   * Device (CUDA) time of the kernels the calls launched, from the profiler's CUDA activity, charged by launch (the profiler's link from a kernel to the op that launched it), not by time; (minor 8) without the kernels of compile work (first_call.compile_device_ms); null without device activity.
   */
  device_ms: number | null;
  /**
   * Captured ops per call: the graph's call_function/call_method/call_module nodes that produce a tensor (getitem excluded), i.e. the torch operations one call replaces.
   */
  ops: number;
  /**
   * Device kernels the graph launched (Triton kernels on a GPU), the most time first; empty on the CPU; (minor 8) without those of compile work.
   */
  kernels: KernelProfile[];
  /**
   * (minor 8) Its first call (by start time, on any thread), apart: it holds a lazy compile, loading the generated code and inductor's autotuning.
   */
  first_call?: null | CallsProfile;
  /**
   * (minor 8) The calls after the first (the steady state); null when it ran once.
   */
  steady?: null | CallsProfile;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "KernelProfile".
 */
export interface KernelProfile {
  name: string;
  calls: number;
  device_ms: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "CallsProfile".
 */
export interface CallsProfile {
  calls: number;
  /**
   * Host time inside the calls, compile_ms included.
   */
  host_ms: number;
  /**
   * Of host_ms, compile work: a compile, a Dynamo compile phase (dynamo_timed) or inductor's autotuning inside the calls.
   */
  compile_ms: number;
  /**
   * Device time of the kernels the calls launched themselves (compile work's excluded); null without device activity.
   */
  device_ms: number | null;
  /**
   * Kernels (and memcpy, memset) the calls launched themselves.
   */
  kernels: number;
  /**
   * Device time of the kernels their compile work launched (autotuning's benchmark runs and L2-cache flushes); null without device activity.
   */
  compile_device_ms: number | null;
  /**
   * Kernels their compile work launched.
   */
  compile_kernels: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "EntryProfile".
 */
export interface EntryProfile {
  /**
   * The cache entry: the compile that made it.
   */
  compile_id: string;
  /**
   * How many calls this cache entry served (the profiler's 'Torch-Compiled Region: <compile id>' events).
   */
  hits: number;
  /**
   * Time inside the entry's code, nested entries (resume functions) and compiles included.
   */
  total_ms: number;
  /**
   * total_ms without nested entries and compiles: this entry's graphs and its own eager part.
   */
  self_ms: number;
  /**
   * Of self_ms, inside this entry's compiled graphs.
   */
  graph_ms: number;
  /**
   * Of self_ms, outside graphs: the graph break's code, skipped calls, Dynamo's glue.
   */
  eager_ms: number;
  /**
   * ATen ops that ran eagerly in eager_ms (top-level ops only).
   */
  eager_ops: number;
  /**
   * Cache lookups that chose this entry.
   */
  cache_lookup_ms: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "EagerGap".
 */
export interface EagerGap {
  /**
   * 'graph_break': the eager part of a frame that ended in a graph break (the break's code, skipped calls it made); 'frame': Dynamo's glue in a frame without a break; 'outside': code no compiled frame ran (the cell's own lines, frames Dynamo skipped or was not started on); 'backward': autograd's eager backward nodes.
   */
  cause: 'graph_break' | 'frame' | 'outside' | 'backward';
  /**
   * The frame (cache entry) whose eager part this is; null for 'outside' and 'backward'.
   */
  compile_id: string | null;
  /**
   * 'graph_break': the index of the break in that frame's graph_breaks.
   */
  break_index: number | null;
  /**
   * How many times it ran (the entry's hits).
   */
  calls: number;
  ms: number;
  /**
   * Top-level ATen ops it ran eagerly.
   */
  ops: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Coverage".
 */
export interface Coverage {
  /**
   * Compiled graphs that ran at least once.
   */
  unique_graphs: number;
  /**
   * Calls of compiled graphs.
   */
  graph_calls: number;
  /**
   * Sum over graph calls of the graph's ops (GraphProfile.ops).
   */
  captured_ops: number;
  /**
   * captured_ops plus the top-level ATen ops that ran eagerly in the forward (outside graphs, compiles and autograd's backward).
   */
  total_ops: number;
  /**
   * captured_ops / total_ops (0..1).
   */
  pct_ops: number;
  /**
   * Time in forward graphs / (that + the eager ops' time) (0..1), as Update 5's 'pct_time'.
   */
  pct_time: number;
  /**
   * The same per cache entry.
   */
  frames: FrameCoverage[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "FrameCoverage".
 */
export interface FrameCoverage {
  compile_id: string;
  graph_calls: number;
  captured_ops: number;
  total_ops: number;
  pct_ops: number;
  pct_time: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "BackwardProfile".
 */
export interface BackwardProfile {
  /**
   * Calls of compiled backward graphs (autograd's CompiledFunctionBackward nodes).
   */
  compiled_calls: number;
  compiled_ms: number;
  /**
   * Autograd nodes of eager ops that ran (e.g. MulBackward0).
   */
  eager_nodes: number;
  eager_ms: number;
  /**
   * (minor 8) Of compiled_ms, compile work inside the compiled backward calls (AOTAutograd's lazy backward compile, on the first).
   */
  compile_ms?: number;
  /**
   * (minor 8) Device time of the kernels the compiled backward calls launched (compile work's excluded); null without device activity.
   */
  device_ms?: number | null;
  /**
   * (minor 8) Of compiled_calls, those that ran on another thread than the cell's (autograd's device thread on a GPU, a thread the cell started).
   */
  other_thread_calls?: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "EagerBaseline".
 */
export interface EagerBaseline {
  /**
   * How the two runs were timed, in words.
   */
  method: string;
  /**
   * The plain run: in scope 'calls' the time in the calls of the functions the compiled run compiled (functions[]), otherwise the cell's wall time.
   */
  eager_ms: number;
  /**
   * The compiled run, the same way, less the compile time inside it.
   */
  compiled_ms: number;
  /**
   * Compile time of the compiled run.
   */
  compile_ms: number;
  /**
   * eager_ms / compiled_ms (above 1: compiled is faster).
   */
  speedup: number | null;
  /**
   * Scope 'calls': each compiled callee, both runs' time in its calls.
   */
  functions: FunctionSpeedup[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "FunctionSpeedup".
 */
export interface FunctionSpeedup {
  /**
   * The callee as the cell wrote it (callees[].name).
   */
  name: string;
  line: number;
  /**
   * The frames compiled from its code (its first frame and the ones reached from it are nested in its calls' time).
   */
  compile_ids: string[];
  calls: number;
  eager_ms: number;
  /**
   * Its calls in the compiled run, compile time inside them excluded.
   */
  compiled_ms: number;
  speedup: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Fix".
 */
export interface Fix {
  /**
   * What --try takes to apply it (e.g. 'capture_scalar_outputs', 'dynamic', 'mark_dynamic:x:0', 'allow_in_graph:helper'). Unique in the report.
   */
  name: string;
  /**
   * One line for a person, e.g. 'Capture .item() in the graph'.
   */
  title: string;
  /**
   * config: a torch._dynamo config value for the run; option: a torch.compile argument (dynamic=True); mark: torch._dynamo.mark_dynamic / maybe_mark_dynamic on an input before each call; register: allow_in_graph / nonstrict_trace on a function for the run; source_edit: a line added to the cell for the run (torch._check); hint: a rewrite only the user can make (torch.cond), not runnable; export (minor 23): one export call of the run made otherwise for the run (its dynamic_shapes refined by export's suggested fixes or with Dim.AUTO, strict=False, or draft_export).
   */
  kind: 'config' | 'option' | 'mark' | 'register' | 'source_edit' | 'hint' | 'export';
  /**
   * The torch API it uses, verbatim (e.g. 'torch._dynamo.config.capture_scalar_outputs', 'torch._dynamo.mark_dynamic', 'torch.cond').
   */
  api: string;
  /**
   * What the user would write in their own code to make the change for good.
   */
  code: string;
  /**
   * Why it addresses its targets, in one or two sentences.
   */
  why: string;
  /**
   * False for a hint: --try refuses it.
   */
  runnable: boolean;
  /**
   * The breaks and recompiles it addresses.
   */
  targets: FixTarget[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "FixTarget".
 */
export interface FixTarget {
  /**
   * The frame: for a graph break the frame that broke, for a recompile the frame that recompiled; null for an export call (minor 23).
   */
  compile_id: string | null;
  /**
   * graph_break: frames[].graph_breaks[index]; recompile: frames[].recompile_reasons[index]; failure: the frame Dynamo gave up on (frames[].fail_reason, index 0), e.g. a data-dependent guard that torch._check settles; export (minor 23): the failed export call exports[index].
   */
  kind: 'graph_break' | 'recompile' | 'failure' | 'export';
  /**
   * Position in that frame's graph_breaks or recompile_reasons (0 for a failure), or the export call's index.
   */
  index: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TryFix".
 */
export interface TryFix {
  fix: Fix;
  /**
   * Where the 'before' numbers come from, in words (the cell's previous run in this kernel, or a run made just before this one).
   */
  before_from: string;
  before: RunOutcome;
  after: RunOutcome;
  /**
   * What was changed for this run only, in words or as a unified diff of the cell (source_edit).
   */
  change: string;
  /**
   * What was put back after the run (config values, marks, registrations), in words.
   */
  restored: string;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "RunOutcome".
 */
export interface RunOutcome {
  /**
   * Frames compiled (compile ids).
   */
  frames: number;
  /**
   * FX graphs captured.
   */
  graphs: number;
  /**
   * Graph breaks (each distinct break once per frame).
   */
  graph_breaks: number;
  /**
   * Compiles of an already compiled code: the frames with recompile_reasons, as the header counts them.
   */
  recompiles: number;
  /**
   * The cell's exception, type and message, if it raised.
   */
  error: string | null;
  /**
   * The run's wall time.
   */
  wall_ms: number;
  /**
   * Compile time inside it.
   */
  compile_ms: number;
  /**
   * With --profile: time inside compiled graphs.
   */
  compiled_ms: number | null;
  /**
   * With --profile: eager time between graphs.
   */
  eager_ms: number | null;
  /**
   * (minor 23) The run's export calls that failed; null when it made none.
   */
  exports_failed?: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "DispatchCode".
 */
export interface DispatchCode {
  code: CodeInfo;
  /**
   * The cache entries in the order Dynamo tries their guards at the next call: most recently used first (a new entry goes to the front, and so does one that matched a call: ExtraState::move_to_front). Entries this run compiled that were no longer in the cache at its end come last (live false).
   */
  entries: DispatchEntry[];
  /**
   * Guards every entry holds alike (same kind, source and check), folded out of distinguishing; 0 with one entry, whose guards are all its own (guard_count).
   */
  shared_guards: number;
  fallback: DispatchFallback;
  /**
   * The dispatch as Python, in the style of depyf's transformed_<fn>: one 'if __guard_<id>(...): return __transformed_code_<id>(...)' per entry, in the order Dynamo tries them, then the fallback.
   */
  text: string;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "DispatchEntry".
 */
export interface DispatchEntry {
  /**
   * The compile that made the entry; its frame in frames[] when in_run.
   */
  compile_id: string;
  /**
   * Compiled by this run; false: an entry of the user's own torch.compile of the same code, which a call tries too.
   */
  in_run: boolean;
  /**
   * Still in the cache and valid at the end of the run (false: gone, or invalidated because an object its guards ID-matched was freed).
   */
  live: boolean;
  /**
   * The leaf guards of the entry's guard tree (what TORCH_LOGS=guards prints).
   */
  guard_count: number;
  /**
   * The guards that tell this entry from its neighbours in the list (the entry before and after it): a check the neighbour makes differently on the same kind and source, or one it does not make at all. Empty with one entry.
   */
  distinguishing: DispatchGuard[];
  /**
   * Calls this entry served in the run (--profile: profile.entries[].hits); null without --profile.
   */
  hits: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "DispatchGuard".
 */
export interface DispatchGuard {
  /**
   * Dynamo's guard kind, verbatim (TENSOR_MATCH, EQUALS_MATCH, TYPE_MATCH, LAMBDA_GUARD, ...).
   */
  kind: string;
  /**
   * What it guards (L['x']); '' for a root guard (global state, shape guards).
   */
  source: string;
  /**
   * The check as Dynamo writes it, without its comment (check_tensor(L['x'], ...), L['n'] == 2).
   */
  check: string;
  /**
   * TENSOR_MATCH: the property of check_tensor that differs (dtype, size, stride, device, requires_grad, dispatch_keys, type); null otherwise.
   */
  property: string | null;
  /**
   * TENSOR_MATCH: what this entry requires of that property (torch.float64, [None] for a dynamic size); null otherwise.
   */
  value: string | null;
  /**
   * differs: the neighbour makes its one check of this kind on this source differently; only_here: the neighbour does not make this check (it has none of this kind on this source, or several independent ones, as the root's LAMBDA_GUARDs).
   */
  difference: 'differs' | 'only_here';
  /**
   * The guard in a few words, e.g. "L['x'] dtype torch.float64", "L['n'] == 2", "type(L['n']) is int".
   */
  summary: string;
  /**
   * Dynamo's guard text, verbatim: KIND: check  # user code  # file:line in fn.
   */
  text: string;
  /**
   * The user line the guard came from, in the code's own file; null for a root guard.
   */
  line: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "DispatchFallback".
 */
export interface DispatchFallback {
  /**
   * What a call that matches no entry does now: recompile (a new entry), eager (the limit is reached: Dynamo runs the original code without compiling, FrameAction.RUN_ONLY), error (the limit is reached under fullgraph=True: FailOnRecompileLimitHit).
   */
  action: 'recompile' | 'eager' | 'error';
  /**
   * Dynamo's config name of the limit: recompile_limit (cache_size_limit in older torch) or accumulated_recompile_limit.
   */
  limit_name: string;
  /**
   * Its value during the run.
   */
  limit: number;
  /**
   * Whether this run hit the limit for this code (Dynamo's 'hit config.recompile_limit' warning).
   */
  limit_hit: boolean;
  /**
   * The fallback in words.
   */
  reason: string;
}
/**
 * (minor 7) One frame's symbolic execution, every analysis attempt of its compile ([Note: trace steps]).
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TraceSteps".
 */
export interface TraceSteps {
  /**
   * What --trace-steps named: a compile id, a function name, or '' (the first frame compiled).
   */
  requested: string;
  /**
   * The compile recorded (frames[].compile_id); null when no compiled frame matched (see note).
   */
  compile_id: string | null;
  /**
   * co_name of the frame's code.
   */
  code_name: string | null;
  /**
   * co_filename of the frame's code.
   */
  filename: string | null;
  /**
   * --trace-steps-max: the most steps kept.
   */
  cap: number;
  /**
   * More instructions ran than were kept (total_steps > steps).
   */
  truncated: boolean;
  /**
   * Instructions Dynamo ran symbolically in this compile, every attempt and inlined call.
   */
  total_steps: number;
  /**
   * Why nothing or not everything was recorded, in words.
   */
  note: string | null;
  /**
   * The codes the steps ran: the frame's, then each inlined callee's; steps[].code indexes it.
   */
  codes: TraceCode[];
  /**
   * Each analysis attempt (compile_attempt_N): Dynamo restarts the frame after a graph break.
   */
  attempts: TraceAttempt[];
  /**
   * The instructions in the order they started (an inlining CALL before its callee's steps).
   */
  steps: TraceStep[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TraceCode".
 */
export interface TraceCode {
  /**
   * co_name.
   */
  name: string;
  filename: string;
  /**
   * The file's label for people (In [2]), when the front end gave one.
   */
  label: string | null;
  firstlineno: number;
  /**
   * The code's lines from firstlineno (linecache), or null when unknown.
   */
  source: string | null;
  /**
   * Its bytecode (dis), which steps[].offset points into.
   */
  instructions: Instruction[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TraceAttempt".
 */
export interface TraceAttempt {
  /**
   * Dynamo's attempt number (compile_attempt_N), from 0.
   */
  attempt: number;
  /**
   * Index of its first step in steps.
   */
  first_step: number;
  /**
   * How many of steps belong to it.
   */
  steps: number;
  /**
   * compiled: it ran to the end (a graph was compiled, maybe at a graph break); restart: Dynamo gave it up at a graph break and traced the frame again; failed: an error ended the compile; cut: past the cap.
   */
  outcome: 'compiled' | 'restart' | 'failed' | 'cut';
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TraceStep".
 */
export interface TraceStep {
  index: number;
  attempt: number;
  /**
   * 0: the frame's own code; 1+: a call Dynamo inlined, that many calls deep.
   */
  depth: number;
  /**
   * The translator (the frame or one inlined call) within its attempt: locals accumulate per tx.
   */
  tx: number;
  /**
   * Index in codes of the code being run.
   */
  code: number;
  /**
   * The instruction's offset in that code (null for one Dynamo inserted).
   */
  offset: number | null;
  opname: string;
  argrepr: string;
  /**
   * The user line, in that code's file.
   */
  line: number | null;
  /**
   * The symbolic stack as the instruction starts, bottom first: short VariableTracker reprs.
   */
  stack: string[];
  /**
   * The symbolic locals whose repr changed since this tx's previous step (all of them on its first step).
   */
  locals: {
    [k: string]: string;
  };
  /**
   * The FX nodes this instruction added (not those of the inlined steps it ran).
   */
  fx_nodes: TraceNode[];
  graph_break: null | TraceBreak;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TraceNode".
 */
export interface TraceNode {
  /**
   * The node's name, as in graphs[].nodes.
   */
  name: string;
  op: string;
  target: string;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TraceBreak".
 */
export interface TraceBreak {
  /**
   * restart: the instruction hit a graph break and Dynamo restarts the analysis to break there; compiled: it compiled the graph so far here and resumes after it (the break); unsupported: a graph break raised inside an inlined call, handled by its caller; error: another exception left the step.
   */
  action: 'restart' | 'compiled' | 'unsupported' | 'error';
  /**
   * The graph break's type, as in frames[].graph_breaks[].gb_type.
   */
  gb_type: string | null;
  /**
   * Dynamo's message, cut to 800 characters.
   */
  reason: string;
  /**
   * Position of the same break in the frame's graph_breaks, when found.
   */
  break_index: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "CudaGraph".
 */
export interface CudaGraph {
  compile_id: string;
  /**
   * Which compiled graph of the compile id (as output_code[].kind).
   */
  kind: 'forward' | 'backward' | 'inference';
  /**
   * The AOT graph of this kind and compile id in graphs[] (aot_forward, aot_backward, aot_inference); null when it was not captured.
   */
  graph_id: number | null;
  /**
   * recorded: CUDA graph trees recorded it (later calls replay it); rerecorded: recorded again because a recorded graph no longer fit a call (rerecord_reasons); skipped: inductor runs it without CUDA graphs (reason); not_recorded: handed to CUDA graph trees but no recording was made in this run (only warm-up calls, or no call).
   */
  status: 'recorded' | 'rerecorded' | 'skipped' | 'not_recorded';
  /**
   * Inductor's own words for a skip: disabled_cudagraphs_reason or its cudagraph_fail_reasons at compile time ('skipping cudagraphs due to cpu device (arg0_1)'), the run-time warning of CUDA graph trees ('skipping cudagraphs due to mutated inputs (1 instances)'), or for a backward its forward's (from_forward). Null when not skipped.
   */
  reason: string | null;
  /**
   * (minor 15) reason in a few words, the explorer's (compiler/summary.py cudagraphs_reason): without inductor's 'skipping cudagraphs due to ' and its stack trace ('cpu device (arg0_1)', 'mutated inputs (1 instances)'), 'no CUDA device' for a CPU graph. Null when reason is null. Absent in a report before minor 15.
   */
  reason_text?: string | null;
  /**
   * Where inductor decided to skip: while compiling the graph, or in CUDA graph trees at a call. Null when not skipped.
   */
  skipped_at: 'compile' | 'run' | null;
  /**
   * A backward skipped because its forward was: AOTAutograd shares one cudagraphs flag between them, and reason is the forward's.
   */
  from_forward: boolean;
  /**
   * What the state or the reason means, in plain words (the explorer's, not inductor's).
   */
  explanation: string | null;
  /**
   * How many functions inductor handed to CUDA graph trees for this graph (one per graph partition: the CUDA code between CPU ops); null when skipped at compile time.
   */
  partitions: number | null;
  /**
   * CUDA graphs recorded for it in this run (each partition, each path in the tree, each re-recording counts).
   */
  recordings: number;
  /**
   * Why it was recorded again, as CUDA graph trees say it ('static input data pointer changed. input name: ...'); distinct, at most 8.
   */
  rerecord_reasons: string[];
  /**
   * Runs CUDA graph trees made eagerly before recording (warm-ups), from inductor's cudagraphs log.
   */
  warmups: number;
  /**
   * With --profile: calls of the compiled graph in this run; null without it.
   */
  calls: number | null;
  /**
   * With --profile: calls that replayed recorded CUDA graphs and ran nothing else; null without it.
   */
  replays: number | null;
  /**
   * With --profile: calls that ran the compiled code without a CUDA graph (a warm-up, a skip); the remaining calls recorded. Null without it.
   */
  eager_runs: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "DdpSplit".
 */
export interface DdpSplit {
  compile_id: string;
  /**
   * The split graph in graphs[] (kind ddp_split_graph).
   */
  graph_id: number | null;
  /**
   * DDPOptimizer's bucket_bytes_cap (DDP's bucket_cap_mb in bytes); null when read from a trace, which does not record it.
   */
  bucket_cap_bytes: number | null;
  /**
   * The pieces in the order they run (forward).
   */
  submodules: DdpSubmodule[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "DdpSubmodule".
 */
export interface DdpSubmodule {
  /**
   * As DDPOptimizer names it: submod_0, submod_1, ...
   */
  name: string;
  /**
   * Its graph in graphs[] (kind ddp_split_child): what the backend compiled.
   */
  graph_id: number | null;
  parameters: DdpParameter[];
  /**
   * The parameters' bytes (those of a static shape): what fills its bucket.
   */
  bytes: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "DdpParameter".
 */
export interface DdpParameter {
  /**
   * The graph input, as Dynamo named it from the parameter's source (l_self_modules_fc_parameters_weight_).
   */
  name: string;
  shape: (number | string)[] | null;
  dtype: string | null;
  /**
   * null for a symbolic shape.
   */
  bytes: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "PartCut".
 */
export interface PartCut {
  /**
   * What to ask the kernel for (unique to one run: a uuid, the part and the compile id).
   */
  key: string;
  /**
   * guards: frames[].guards (rows); guard_tree: frames[].guard_tree (characters); (minor 25) original_bytecode, modified_bytecode: the frame's listing (instructions); graph_code: graphs[].code of the graph named by graph (characters).
   */
  part: 'guards' | 'guard_tree' | 'original_bytecode' | 'modified_bytecode' | 'graph_code';
  /**
   * The frame the part is of.
   */
  compile_id: string;
  /**
   * Rows (guards, instructions) or characters (guard_tree, graph_code) the report holds.
   */
  kept: number;
  /**
   * Rows or characters of the whole part.
   */
  total: number;
  /**
   * (minor 24) Where the whole part is in the structured-trace log the report was read from (a report read from a trace: kept 0, read when a view asks); null: the kernel that ran the cell keeps it.
   */
  log?: null | LogSpan;
  /**
   * (minor 25) graph_code: the id of the graph (graphs[].id) whose code it is; null for a frame's part.
   */
  graph?: number | null;
}
/**
 * (minor 24) A payload in a structured-trace log: its lines' bytes, each after its tab (compiler/trace/reader.py read_span); a .gz log's offsets are into its uncompressed text.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "LogSpan".
 */
export interface LogSpan {
  /**
   * The log file, as the report was read from it.
   */
  path: string;
  /**
   * Byte offset of the payload's first line.
   */
  offset: number;
  /**
   * Bytes of the payload's lines.
   */
  length: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TraceSource".
 */
export interface TraceSource {
  /**
   * The log files read (one per rank of the report).
   */
  logs: TraceLogFile[];
  /**
   * The rank the log is of (its records' 'rank', else its file name's rank_N), null for a process without torch.distributed.
   */
  rank: number | null;
  /**
   * What a pane shows for a captured run that this trace does not hold, and why (the original bytecode of a top-level frame, the failing guards beyond the first, ...).
   */
  missing: TraceMissing[];
  /**
   * Every cache decision the trace records, in order: the FX graph cache (inductor) and AOTAutograd's cache, hit, miss or bypass, per compile id.
   */
  caches: CacheDecision[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TraceLogFile".
 */
export interface TraceLogFile {
  path: string;
  rank: number | null;
  lines: number;
  /**
   * Structured records read (string-table entries included).
   */
  records: number;
  /**
   * Lines that were neither a record nor a payload (a torn last line, a foreign log line).
   */
  skipped: number;
  bytes: number;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "TraceMissing".
 */
export interface TraceMissing {
  /**
   * The data-pane name of the pane it belongs to (x-dynamo-explorer.panes).
   */
  pane: string;
  /**
   * What is not there, in words.
   */
  what: string;
  /**
   * Why the trace does not hold it, and where to get it.
   */
  why: string;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "RanksView".
 */
export interface RanksView {
  /**
   * How many ranks were read or run.
   */
  world_size: number;
  /**
   * The rank whose full report this is (the lowest).
   */
  shown_rank: number;
  ranks: RankSummary[];
  /**
   * The first compile where a rank differs from the lowest rank; null when all ranks compiled alike.
   */
  divergence: null | Divergence;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "RankSummary".
 */
export interface RankSummary {
  rank: number;
  /**
   * Where this rank's report came from: its trace log, or its run's report file.
   */
  source: string;
  /**
   * The rank's compiles in compile order.
   */
  compiles: RankCompile[];
  /**
   * Seconds this rank's frames took to compile (compilation_metrics).
   */
  compile_s: number;
  /**
   * The rank whose compiles took the longest (the others wait for it at their next collective).
   */
  straggler: boolean;
  /**
   * (minor 12) In an --html export of several ranks (one page a rank): the file name of this rank's page, beside the one shown. Absent elsewhere.
   */
  page?: string | null;
  /**
   * (minor 13) Where a kernel opened the trace (%dynamo_open, open_trace): the key under which it keeps this rank's whole report (kernel_ext/parts.py), for the ranks view to show that rank in place. Absent elsewhere (the CLI, an --html page); a kernel restarted since answers that it is no longer kept.
   */
  part?: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "RankCompile".
 */
export interface RankCompile {
  compile_id: string;
  status: FrameStatus;
  /**
   * A short hash of the Dynamo graph's readable code (less its '# File:' comments): equal hashes, equal graphs.
   */
  graph: string | null;
  /**
   * The compile's cache decisions, 'fx_graph miss, aotautograd hit' (a trace's).
   */
  cache: string | null;
  compile_s: number | null;
  /**
   * (minor 12) When this compile began, in seconds after the first compile of any rank (each rank's frames' start_time: one time axis for the job; ranks on several machines read their own clocks). null when its start is unknown.
   */
  start_s?: number | null;
  /**
   * (minor 11) The compile's collective ops in issue order.
   */
  collectives: Collective[];
}
/**
 * (minor 11) One collective op of a compiled graph (torch.ops._c10d_functional.*, wait_tensor left out): ranks pair their collectives by position, so every rank must issue the same op, shape, dtype and arguments at each one.
 *
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Collective".
 */
export interface Collective {
  /**
   * The op's name without its namespace, overload and in-place underscore: all_reduce, all_gather_into_tensor, reduce_scatter_tensor, all_to_all_single, broadcast, ...
   */
  op: string;
  /**
   * The shape of the op's result (sizes or symbols), when the graph records it.
   */
  shape: (number | string)[] | null;
  dtype: string | null;
  /**
   * Its literal arguments as written in the graph: the reduce op, group name, group size ('sum', '0').
   */
  args: string;
  graph: GraphKind1;
  /**
   * Its node's name in that graph.
   */
  node: string;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Divergence".
 */
export interface Divergence {
  /**
   * The position in compile order (0: each rank's first compile).
   */
  index: number;
  compile_id: string | null;
  /**
   * compile_ids: a rank compiled a compile id the lowest rank did not (or the other way), e.g. a recompile on one rank only; collectives (minor 11): the same compile id issues other collectives or in another order (checked before the graph: the cause of a hang); graph: the same compile id traced into another graph; graph_break: other breaks; cache: another cache decision; status: another outcome.
   */
  kind: 'compile_ids' | 'collectives' | 'graph' | 'graph_break' | 'cache' | 'status';
  /**
   * The ranks that differ from the lowest rank at this compile.
   */
  ranks: number[];
  /**
   * One line: what differs, on which ranks.
   */
  summary: string;
  /**
   * The cause: the guard that failed on the rank that recompiled, the unified diff of the two graphs, what a cache split does.
   */
  detail: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "Numerics".
 */
export interface Numerics {
  /**
   * How many calls of each compiled graph were checked (--check-numerics N; the first call of each cache entry by default).
   */
  calls_per_graph: number;
  /**
   * What the check cost: the wall time of its own runs (copies of the inputs, the eager and float64 runs, the comparison), beside the run's.
   */
  seconds: number;
  /**
   * How many times the check ran a graph (eagerly or in float64).
   */
  runs: number;
  /**
   * One per checked call of a compiled graph, in the order of the calls.
   */
  graphs: NumericsGraph[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "NumericsGraph".
 */
export interface NumericsGraph {
  /**
   * The compile whose graph this is ('1/0').
   */
  compile_id: string;
  /**
   * graphs[].id of the Dynamo graph checked; null when the report holds none.
   */
  graph_id: number | null;
  /**
   * Which call of the compiled graph was checked (1: its first).
   */
  call: number;
  verdict: NumericsVerdict;
  /**
   * The check in one line, the engine's words: '[1/0] f: out[0] worse than eager (5.8e-03 vs 1.2e-07 from float64)'.
   */
  summary: string;
  /**
   * Each tensor output of the graph, in its order.
   */
  outputs: NumericsOutput[];
  /**
   * Why the whole graph was not compared (random ops whose values cannot be replayed, an input that could not be copied, an eager run that raised); null when it was.
   */
  why: string | null;
  /**
   * What checking this call cost.
   */
  seconds: number;
  /**
   * A call worse than eager: where it became worse, in words, found after the run by torch's compiler bisector on the same graph and inputs ('from inductor's post-grad passes: post_grad_custom_post_pass (post_grad_passes; inductor is no worse without it; aot_eager and aot_eager_decomp_partition no worse)'); for a backend of the user's, the first of aot_eager and aot_eager_decomp_partition already worse, else the backend itself; 'not located: ...' when the search could not finish; null otherwise.
   */
  located?: string | null;
  /**
   * What the compiler bisector found, in its own names; null when it found nothing or did not run.
   */
  location?: null | NumericsLocation;
  /**
   * A call worse than eager: the first node of the Dynamo graph (graph_id), in its order, among those its first worse output is made from, whose value compiled by the backend that made it worse is worse than eager's against float64 (a binary search, each probe the graph up to one node compiled); null otherwise, or when no node could be probed.
   */
  first_node?: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "NumericsOutput".
 */
export interface NumericsOutput {
  /**
   * The output's position among the graph's outputs (out[0], ...).
   */
  index: number;
  /**
   * Its dtype, as torch names it without 'torch.' ('bfloat16').
   */
  dtype: string;
  shape: number[];
  verdict: NumericsVerdict1;
  /**
   * The largest absolute difference between the compiled value and eager's.
   */
  max_abs: number | null;
  /**
   * The largest relative difference (|compiled - eager| / max(|eager|, tiny)).
   */
  max_rel: number | null;
  /**
   * The compiled value's root-mean-square distance from the float64 run's; null without a float64 run.
   */
  compiled_error: number | null;
  /**
   * Eager's root-mean-square distance from the float64 run's: the error the compiled value is measured against (torch._dynamo.utils.same's rule).
   */
  eager_error: number | null;
  /**
   * The verdict in words: what a difference no worse than eager is expected from, or why the output was not compared.
   */
  why: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "NumericsLocation".
 */
export interface NumericsLocation {
  /**
   * The first backend of the bisector's order whose outputs are worse than eager's ('aot_eager', 'aot_eager_decomp_partition', 'inductor'), or the run's own backend of the user's.
   */
  backend: string;
  /**
   * The bisector's subsystem of that backend which, turned off, makes the outputs no worse ('pre_grad_passes', 'joint_graph_passes', 'post_grad_passes', 'lowerings', 'decomposition', 'cudagraphs', or a setting: 'inductor_emulate_precision_casts'); null when none does.
   */
  subsystem: string | null;
  /**
   * The one application found: a pass's name ('post_grad_custom_post_pass'), an op whose decomposition it is ('aten.sigmoid.default'), a node of inductor's post-grad graph (lowerings), or the setting that helps ('emulate_precision_casts=True').
   */
  detail: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportCall".
 */
export interface ExportCall {
  /**
   * Its place among the run's export calls.
   */
  index: number;
  /**
   * What was called: 'torch.export.export', 'torch.export.draft_export' or 'torch._dynamo.export'.
   */
  api: string;
  mode: ExportMode;
  /**
   * The module's class name (or the function's name) exported.
   */
  module: string;
  /**
   * The first line of its forward (or the function) in its file.
   */
  module_line: number | null;
  /**
   * The user's file of the call (a cell's or a script's).
   */
  filename: string | null;
  /**
   * The user's line that made the call.
   */
  line: number | null;
  inputs: ExportInput[];
  /**
   * The dynamic_shapes given, each Dim by its name ('{"x": {0: "batch"}}'); null for none.
   */
  dynamic_shapes: string | null;
  outcome: ExportOutcome;
  /**
   * How long the call took.
   */
  seconds: number;
  /**
   * The call in one line, the engine's words: 'export Gate (non-strict) failed at line 6: a guard on a data-dependent value (GuardOnDataDependentSymNode)'.
   */
  summary: string;
  /**
   * Why it failed; null when it exported.
   */
  failure: null | ExportFailure;
  /**
   * The exported program's graph signature, inputs then outputs (empty for a failure, or for torch._dynamo.export, which has none).
   */
  signature: ExportSpec[];
  /**
   * The exported program's range_constraints.
   */
  ranges: ExportRange[];
  /**
   * How many nodes the exported graph has.
   */
  graph_nodes: number | null;
  /**
   * @deprecated
   * Minor 21 only: the exported graph's readable code; since minor 22 the code of its graph (graph_id).
   */
  graph_code?: string | null;
  /**
   * draft_export's report: each failure it met and what it assumed instead (empty for other calls, or a clean draft).
   */
  draft: DraftFailure[];
  /**
   * (minor 22) The exported graph in graphs (kind 'export'), drawn in the FX graph pane; null for a failure.
   */
  graph_id?: number | null;
  /**
   * (minor 22) What the exported program checks of its inputs when called (ExportedProgram.module()), the guards export kept: each user input dimension's static size or its symbol's range, the sizes that must be equal, and the shape guards of ExportedProgram._guards_code.
   */
  checks?: ExportCheck[];
  /**
   * (minor 23) The compiles Dynamo made within the call, each a frame of the report: strict mode traces the module with Dynamo (a frame of torch's export wrapper that inlines forward), non-strict mode none.
   */
  compile_ids?: string[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportInput".
 */
export interface ExportInput {
  /**
   * The parameter of forward it was given for ('x'), or 'args[i]'.
   */
  name: string;
  shape: number[] | null;
  /**
   * A tensor's dtype ('float32'), else the value's type name.
   */
  dtype: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportFailure".
 */
export interface ExportFailure {
  /**
   * The exception's type as torch names it ('GuardOnDataDependentSymNode').
   */
  exception: string;
  kind: ExportFailureKind;
  /**
   * The kind in plain words ('a guard on a data-dependent value').
   */
  what: string;
  /**
   * The exception's message, its first paragraph.
   */
  message: string;
  /**
   * The user's file of the innermost user frame the failure came from.
   */
  filename: string | null;
  /**
   * That frame's line (in forward: 'if x.sum() > 0:'), from the traceback, or in strict mode Dynamo's user stack.
   */
  line: number | null;
  function: string | null;
  /**
   * That line's source.
   */
  code: string | null;
  /**
   * Export's own suggested fixes, as it wrote them ('feat = 8').
   */
  suggested: string[];
  /**
   * What usually helps with this kind, naming torch's APIs (torch._check, torch.cond, Dim.AUTO, draft_export).
   */
  remedies: string[];
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportSpec".
 */
export interface ExportSpec {
  direction: 'input' | 'output';
  /**
   * torch's InputKind or OutputKind name: PARAMETER, BUFFER, USER_INPUT, CONSTANT_TENSOR, CUSTOM_OBJ, TOKEN; USER_OUTPUT, BUFFER_MUTATION, USER_INPUT_MUTATION, LOSS_OUTPUT, GRADIENT_TO_PARAMETER, ...
   */
  kind: string;
  /**
   * The graph's placeholder or output name ('p_w', 'x').
   */
  name: string;
  /**
   * The module's attribute it stands for ('w'), for parameters, buffers and their mutations.
   */
  target: string | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportRange".
 */
export interface ExportRange {
  /**
   * The symbol as the graph names it ('s77', 'u0').
   */
  symbol: string;
  /**
   * The name of the Dim the user gave for it ('batch'), or 'Dim.AUTO' / 'Dim.DYNAMIC'.
   */
  dim: string | null;
  /**
   * Where it is: an input's dimension ('x.shape[0]').
   */
  place: string | null;
  min: number | null;
  /**
   * null: no upper bound.
   */
  max: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "DraftFailure".
 */
export interface DraftFailure {
  /**
   * draft_export's FailureType name: DATA_DEPENDENT_ERROR, GUARD_ADDED, MISSING_FAKE_KERNEL, MISMATCHED_FAKE_KERNEL.
   */
  kind: string;
  /**
   * The expression it could not decide ('Eq(u0, 1)').
   */
  expr: string | null;
  /**
   * What it assumed for it and traced with ('False'), asserted in the graph.
   */
  assumed: string | null;
  /**
   * The op of a missing or mismatched fake kernel.
   */
  op: string | null;
  filename: string | null;
  /**
   * The user's line it happened at.
   */
  line: number | null;
  code: string | null;
  occurrences: number | null;
}
/**
 * This interface was referenced by `CompileReport`'s JSON-Schema
 * via the `definition` "ExportCheck".
 */
export interface ExportCheck {
  kind: ExportCheckKind;
  /**
   * The check as Python over the inputs: 'x.shape[1] == 8', '2 <= x.shape[0] <= 64', 'y.shape[0] == x.shape[0]'.
   */
  expr: string;
  /**
   * The user input it checks (the forward parameter); null for a guard over several.
   */
  input?: string | null;
}
/**
 * The stored form of a big report (minor 4; compiler/encoding.py, labextension/src/model/encoding.ts): a notebook output or a standalone page whose report's JSON is larger than compiler.encoding.ENCODE_ABOVE bytes holds this instead of the report. The MIME type is the same; readers tell the two apart by `encoding`.
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
export const SCHEMA_VERSION = { major: 1, minor: 26 } as const;

/** The MIME type of a report bundle; the major version is part of the name. */
export const MIME_TYPE = "application/vnd.dynamo-explorer.report.v1+json";

/** The MIME type, beside MIME_TYPE in one output, of what its report holds only in part (x-dynamo-explorer.parts_mime_type). */
export const PARTS_MIME_TYPE = "application/vnd.dynamo-explorer.parts.v1+json";

/** The schema majors this renderer reads (SchemaVersion.major's enum). */
export const SUPPORTED_MAJORS: readonly number[] = [1];

/** The panes of the report view, in display order: their `data-pane` names (x-dynamo-explorer.panes). */
export const PANES = ["header", "profile", "frames", "source", "original-bytecode", "modified-bytecode", "guards", "graph-breaks", "trace-steps", "decisions", "try-fix", "numerics", "export", "dispatch", "compile-time", "fx-graph", "code"] as const;

/** The name of a pane (its `data-pane` attribute). */
export type PaneName = (typeof PANES)[number];

/** The title each pane shows (x-dynamo-explorer.panes[].title). */
export const PANE_TITLES: Readonly<Record<PaneName, string>> = {
  "header": "Dynamo Explorer",
  "profile": "Why is it slow",
  "frames": "Frames",
  "source": "Source",
  "original-bytecode": "Original bytecode",
  "modified-bytecode": "Modified bytecode",
  "guards": "Guards",
  "graph-breaks": "Graph breaks",
  "trace-steps": "Step through",
  "decisions": "Inline / skip decisions",
  "try-fix": "Try a fix",
  "numerics": "Numerics",
  "export": "Export",
  "dispatch": "Dispatch",
  "compile-time": "Compile time",
  "fx-graph": "FX graph",
  "code": "Graph code and output code"
};
