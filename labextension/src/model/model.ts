/**
 * The report model the panes share: the version gate and derived indexes.
 *
 * - `checkReport(data)`: is this a report of a major version this renderer draws?
 * - `ReportIndex`: frames by compile id, recompile chains, the resume-function tree, graphs by id,
 *   de-duplicated graph breaks, the line key that links source lines, bytecode rows and FX nodes, and
 *   where a line is for people (`In [2], line 9`, `transformers/generation/utils.py:2412`).
 */
import { KernelIndex } from './kernels';
import {
  SUPPORTED_MAJORS,
  type CompileReport,
  type Frame,
  type Graph,
  type GraphBreak,
  type Guard,
  type SourceExcerpt,
  type SourceFile
} from '../schema';

/** Result of `checkReport`. */
export type ReportCheck =
  { ok: true; report: CompileReport } | { ok: false; kind: 'unsupported-version' | 'malformed'; message: string };

/**
 * Gate a payload: an unknown major or a payload that is not a report gives a message to show instead.
 */
export function checkReport(data: unknown): ReportCheck {
  const value = parsePayload(data);
  if ('ok' in value) {
    return value;
  }
  const problem = versionProblem(value);
  if (problem) {
    return problem;
  }
  const report = value as Partial<CompileReport>;
  if (!Array.isArray(report.frames) || !Array.isArray(report.graphs) || !report.cell) {
    return {
      ok: false,
      kind: 'malformed',
      message: 'This Dynamo Explorer report lacks frames, graphs or cell: it does not match schema v1.'
    };
  }
  return { ok: true, report: report as CompileReport };
}

/** A payload as an object (a string is parsed as JSON), or why it is none. */
export function parsePayload(data: unknown): object | { ok: false; kind: 'malformed'; message: string } {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { ok: false, kind: 'malformed', message: 'This Dynamo Explorer output is not valid JSON.' };
    }
  }
  if (!value || typeof value !== 'object') {
    return { ok: false, kind: 'malformed', message: 'This Dynamo Explorer output holds no report.' };
  }
  return value;
}

/**
 * Why a payload's `schema_version` cannot be read by this renderer, or null (a report and its stored form,
 * `EncodedReport`, both carry it in the clear).
 */
export function versionProblem(value: object): ReportCheck | null {
  const version = (value as { schema_version?: { major?: unknown; minor?: unknown } }).schema_version;
  const major = version && typeof version.major === 'number' ? version.major : null;
  if (major === null) {
    return {
      ok: false,
      kind: 'malformed',
      message: 'This Dynamo Explorer output has no schema_version: re-run the cell with the installed kernel_ext.'
    };
  }
  if (!SUPPORTED_MAJORS.includes(major)) {
    const minor = typeof version?.minor === 'number' ? `.${version.minor}` : '';
    return {
      ok: false,
      kind: 'unsupported-version',
      message:
        `This report uses schema version ${major}${minor}, but this Dynamo Explorer renderer reads ` +
        `version ${SUPPORTED_MAJORS.join(', ')}.x: install the same dynamo-explorer version in the kernel and in JupyterLab.`
    };
  }
  return null;
}

/**
 * A compile id split into its parts: '!1/2/3' -> prefix '!1/', frame 2, index 3; '0/1@2' -> frame 0, index 1,
 * epoch 2 (Dynamo's [0/1] after the run's second torch._dynamo.reset() that followed a compile: compiler/compile_ids.py).
 */
export interface ICompileIdParts {
  prefix: string;
  frameId: number;
  index: number;
  epoch: number;
}

/**
 * Parse a compile id ('0/1', '!0/1/2' for compiled autograd, '0/1@1' after a reset).
 */
export function parseCompileId(id: string): ICompileIdParts {
  const match = /^(!\d+\/)?(\d+)\/(\d+)(?:@(\d+))?$/.exec(id);
  if (!match) {
    return { prefix: id, frameId: -1, index: 0, epoch: 0 };
  }
  return {
    prefix: match[1] ?? '',
    frameId: Number(match[2]),
    index: Number(match[3]),
    epoch: match[4] ? Number(match[4]) : 0
  };
}

/** Recompiles of one code object: frames '0/0', '0/1', ... in compile order. */
export interface IChain {
  key: string;
  frames: Frame[];
  children: IChain[];
  parent: IChain | null;
}

/** One de-duplicated graph break. */
export interface IBreakGroup {
  key: string;
  first: GraphBreak;
  count: number;
  frames: Frame[];
  dataDependent: boolean;
}

/**
 * Pattern of a data-dependent graph break: branching on a tensor, or a Python value or output shape
 * that depends on tensor data (Tensor.item(), nonzero, ...).
 */
const DATA_DEPENDENT = /data[- ]dependent|\.item\(\)|capture_scalar_outputs|dynamic[_ ]output[_ ]shape/i;

/**
 * Is this graph break caused by control flow or values that depend on tensor data?
 */
export function isDataDependent(gb: GraphBreak): boolean {
  return DATA_DEPENDENT.test(gb.gb_type) || DATA_DEPENDENT.test(gb.reason) || DATA_DEPENDENT.test(gb.explanation ?? '');
}

/**
 * Derived views of one report, computed once per render.
 */
export class ReportIndex {
  /** Frames by compile id. */
  readonly frames = new Map<string, Frame>();
  /** Graphs by id. */
  readonly graphs = new Map<number, Graph>();
  /** Chains in first-compile order. */
  readonly chains: IChain[] = [];
  /** Chains that are not a resume function of another frame. */
  readonly roots: IChain[] = [];
  /** Chain of each frame's compile id. */
  readonly chainOf = new Map<string, IChain>();
  /** De-duplicated graph breaks, in first-seen order. */
  readonly breakGroups: IBreakGroup[] = [];
  /** Files the report names, by filename (reports of minor 3 on). */
  readonly sources = new Map<string, SourceFile>();
  private _kernels: KernelIndex | null = null;

  constructor(readonly report: CompileReport) {
    for (const source of report.sources ?? []) {
      this.sources.set(source.filename, source);
    }
    for (const graph of report.graphs) {
      this.graphs.set(graph.id, graph);
    }
    const byKey = new Map<string, IChain>();
    for (const frame of report.frames) {
      this.frames.set(frame.compile_id, frame);
      const parts = parseCompileId(frame.compile_id);
      const key =
        parts.frameId < 0 ? frame.compile_id : `${parts.prefix}${parts.frameId}${parts.epoch ? `@${parts.epoch}` : ''}`;
      let chain = byKey.get(key);
      if (!chain) {
        chain = { key, frames: [], children: [], parent: null };
        byKey.set(key, chain);
        this.chains.push(chain);
      }
      chain.frames.push(frame);
      this.chainOf.set(frame.compile_id, chain);
    }
    for (const chain of this.chains) {
      const parentId = chain.frames.find(f => f.parent_compile_id)?.parent_compile_id;
      const parent = parentId ? this.chainOf.get(parentId) : undefined;
      if (parent && parent !== chain && !this.isAncestor(chain, parent)) {
        chain.parent = parent;
        parent.children.push(chain);
      } else {
        this.roots.push(chain);
      }
    }
    const groups = new Map<string, IBreakGroup>();
    for (const frame of report.frames) {
      for (const gb of frame.graph_breaks) {
        const key = [gb.gb_type, gb.reason, gb.filename ?? '', gb.line ?? ''].join('\u0000');
        let group = groups.get(key);
        if (!group) {
          group = { key, first: gb, count: 0, frames: [], dataDependent: isDataDependent(gb) };
          groups.set(key, group);
          this.breakGroups.push(group);
        }
        group.count += 1;
        if (!group.frames.includes(frame)) {
          group.frames.push(frame);
        }
      }
    }
  }

  /** Is `maybeAncestor` above `chain` in the resume tree (guards against cycles)? */
  private isAncestor(maybeAncestor: IChain, chain: IChain): boolean {
    for (let c: IChain | null = chain; c; c = c.parent) {
      if (c === maybeAncestor) {
        return true;
      }
    }
    return false;
  }

  /** FX node <-> inductor kernel links of the report's output code (built on first use). */
  get kernels(): KernelIndex {
    this._kernels ??= new KernelIndex(this.report);
    return this._kernels;
  }

  /** Number of dynamo graphs (AOT graphs are views of those). */
  get dynamoGraphCount(): number {
    return this.report.graphs.filter(g => g.kind === 'dynamo').length;
  }

  /** Number of graph-break records over all frames. */
  get breakCount(): number {
    return this.report.frames.reduce((n, f) => n + f.graph_breaks.length, 0);
  }

  /** Number of recompiles: compiles of a code object after its first. */
  get recompileCount(): number {
    return this.report.frames.filter(f => parseCompileId(f.compile_id).index > 0).length;
  }

  /** Graphs of a frame, in graph_ids order (missing ids skipped). */
  graphsOf(frame: Frame): Graph[] {
    const seen = new Set<number>();
    const out: Graph[] = [];
    for (const id of frame.graph_ids) {
      const graph = this.graphs.get(id);
      if (graph && !seen.has(id)) {
        seen.add(id);
        out.push(graph);
      }
    }
    for (const graph of this.report.graphs) {
      if (graph.compile_id === frame.compile_id && !seen.has(graph.id)) {
        seen.add(graph.id);
        out.push(graph);
      }
    }
    return out;
  }

  /** The compile whose guards failed before this one: recompile_reasons, else the previous in its chain. */
  previousCompile(frame: Frame): Frame | null {
    for (const reason of frame.recompile_reasons) {
      const failed = reason.failed_compile_id ? this.frames.get(reason.failed_compile_id) : undefined;
      if (failed && failed !== frame) {
        return failed;
      }
    }
    const chain = this.chainOf.get(frame.compile_id);
    const pos = chain ? chain.frames.indexOf(frame) : -1;
    return chain && pos > 0 ? chain.frames[pos - 1] : null;
  }

  /** Does a frame have a data-dependent graph break? */
  hasDataDependentBreak(frame: Frame): boolean {
    return frame.graph_breaks.some(isDataDependent);
  }

  /**
   * The key that links rows about one source line across panes.
   *
   * Lines of the cell get 'cell:N' whichever filename spelling reached us; other files 'FILE:N'.
   */
  lineKey(filename: string | null | undefined, line: number | null | undefined, inCell = false): string | null {
    if (line === null || line === undefined) {
      return null;
    }
    if (inCell || !filename || filename === this.report.cell.filename) {
      return `cell:${line}`;
    }
    return `${filename}:${line}`;
  }

  /**
   * Where a line is, for people: `In [2], line 9` for a notebook cell (as IPython's tracebacks name it),
   * `transformers/generation/utils.py:2412` for a file, `line 9` for the cell that ran.
   */
  place(filename: string | null | undefined, line: number | null | undefined, inCell = false): string {
    const at = line === null || line === undefined ? '' : String(line);
    if (inCell || !filename || filename === this.report.cell.filename) {
      return at ? `line ${at}` : 'this cell';
    }
    const source = this.sources.get(filename);
    if (!source) {
      return at ? `${filename}:${at}` : filename;
    }
    if (source.kind === 'cell' || source.kind === 'notebook-cell') {
      return at ? `${source.label}, line ${at}` : source.label;
    }
    return at ? `${source.label}:${at}` : source.label;
  }

  /**
   * A code text (an FX graph, inductor's wrapper) with the file names of notebook cells replaced by their
   * labels: `# File: /tmp/ipykernel_7/123.py:9 in forward` reads `# File: In [2], line 9 in forward`.
   */
  labelPaths(text: string): string {
    for (const source of this.sources.values()) {
      if (
        (source.kind === 'cell' || source.kind === 'notebook-cell') &&
        source.filename !== source.label &&
        text.includes(source.filename)
      ) {
        text = text
          .split(source.filename)
          .map((part, i) => (i === 0 ? part : part.replace(/^:(\d+)/, ', line $1')))
          .join(source.label);
      }
    }
    return text;
  }

  /** The excerpt of a file that holds a line, with its source, or null. */
  excerptAt(filename: string, line: number): { source: SourceFile; excerpt: SourceExcerpt } | null {
    const source = this.sources.get(filename);
    for (const excerpt of source?.excerpts ?? []) {
      const count = excerpt.text.split('\n').length;
      if (line >= excerpt.first_line && line < excerpt.first_line + count) {
        return { source: source!, excerpt };
      }
    }
    return null;
  }

  /** Line key of a line of a frame's own code. */
  frameLineKey(frame: Frame, line: number | null | undefined): string | null {
    return this.lineKey(frame.code.filename, line, frame.code.in_cell);
  }
}

/** A local as a guard's code names it, `L['items']`; the group is its plain name. */
const LOCAL_NAME = /L\['([A-Za-z_]\w*)'\]/g;

/**
 * The guards of `previous` that the recompile reasons of `frame` name.
 *
 * Dynamo words a failed guard as the check itself ("L['x'] == 3", or with the local's plain name:
 * "len(items) == 1" for the guard `len(L['items']) == 1`) or, for tensors, "tensor 'a' dtype mismatch ...":
 * all are matched.
 */
export function failedGuards(frame: Frame, previous: Frame | null): Set<Guard> {
  const out = new Set<Guard>();
  if (!previous) {
    return out;
  }
  for (const { reason } of frame.recompile_reasons) {
    const tensorNames = [...reason.matchAll(/tensor '([^']+)'/g)].map(m => m[1]);
    for (const guard of previous.guards) {
      const codeHit = guard.code.some(
        code => code.length > 0 && (reason.includes(code) || reason.includes(code.replace(LOCAL_NAME, '$1')))
      );
      const tensorHit =
        guard.type === 'TENSOR_MATCH' &&
        tensorNames.some(name => guard.source === `L['${name}']` || guard.source === name);
      if (codeHit || tensorHit) {
        out.add(guard);
      }
    }
  }
  return out;
}

/** The text that identifies a guard in a diff. */
export function guardText(guard: Guard): string {
  return `${guard.type} ${guard.source}: ${guard.code.join(' ; ')}`;
}
