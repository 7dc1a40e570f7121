/**
 * Inductor's output code read for people: its parts (imports and setup, each kernel's definition, the wrapper
 * that calls them, the benchmark harness), its kernel calls, and the links between FX nodes and the kernels
 * that compute them (`OutputCode.calls`, `Kernel.nodes` / `aot_nodes`, written by the engine from inductor's
 * provenance tracking and its "Source Nodes" comments).
 */
import type { CompileReport, Graph, Kernel, OutputCode } from '../schema';

/** One kernel (or extern kernel) as a place in one output code: what a node links to. */
export interface IKernelRef {
  /** Position of the output code in `report.output_code`. */
  code: number;
  /** Kernel name: one of `kernels[]` or an extern kernel (`extern_kernels.addmm`). */
  kernel: string;
  /** 1-based line of the call in the source (null: the kernel is known only from its definition). */
  line: number | null;
  /** Dynamo graph nodes it computes. */
  nodes: string[];
  /** Post-grad (AOT) graph nodes it computes. */
  aotNodes: string[];
}

/** A part of an output code's source, by 1-based line range (inclusive). */
export interface ISegment {
  kind: 'setup' | 'kernel' | 'wrapper' | 'harness';
  first: number;
  last: number;
  /** For a kernel: its name, and the line range of its body (the C++ or Triton source). */
  kernel?: string;
  body?: { first: number; last: number };
}

/** The first line of a kernel definition: `cpp_fused_relu_0 = async_compile.cpp_pybinding(...`. */
const DEFINITION = /^(\w+) = async_compile\.\w+\(/;
/** The line that closes a kernel's source string: `''')`, `''', device_str='cuda')`. */
const CLOSING = /^(?:'''|""")/;
/** Where the benchmark harness starts (inductor writes it after the wrapper). */
const HARNESS = /^def (?:get_args|benchmark_compiled_module)\(/;

/**
 * Split an output code's source into its parts: everything before the first kernel (imports, aliases) is
 * 'setup', each kernel definition (with the comment block above it) is 'kernel', the benchmark harness at the
 * end is 'harness', the rest is 'wrapper'. A source with no kernel has its setup up to the first `class` or
 * `def` line.
 */
export function segments(source: string): ISegment[] {
  const lines = source.split('\n');
  const out: ISegment[] = [];
  const kernels: ISegment[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = DEFINITION.exec(lines[i]);
    if (!m) {
      continue;
    }
    let first = i;
    while (first > 0 && lines[first - 1].startsWith('#')) {
      first -= 1;
    }
    let close = i + 1;
    while (close < lines.length && !CLOSING.test(lines[close])) {
      close += 1;
    }
    if (close >= lines.length) {
      continue; // not a string we can see the end of: leave it in the wrapper
    }
    kernels.push({
      kind: 'kernel',
      first: first + 1,
      last: close + 1,
      kernel: m[1],
      body: { first: i + 2, last: close }
    });
    i = close;
  }
  const harnessAt = lines.findIndex(l => HARNESS.test(l));
  const harness =
    harnessAt >= 0 && (kernels.length === 0 || harnessAt + 1 > kernels[kernels.length - 1].last) ? harnessAt + 1 : 0;
  const setupEnd =
    kernels.length > 0
      ? kernels[0].first - 1
      : Math.max(
          0,
          lines.findIndex(l => /^(?:class|def|async_compile\.wait)\b/.test(l))
        );
  let at = 1;
  if (setupEnd >= 1) {
    out.push({ kind: 'setup', first: 1, last: setupEnd });
    at = setupEnd + 1;
  }
  const end = harness ? harness - 1 : lines.length;
  for (const k of kernels) {
    if (k.first > at) {
      const previous = out[out.length - 1];
      if (previous?.kind === 'kernel' && lines.slice(at - 1, k.first - 1).every(l => l.trim() === '')) {
        previous.last = k.first - 1; // the blank lines between two kernels go with the first
      } else {
        out.push({ kind: 'wrapper', first: at, last: k.first - 1 });
      }
    }
    out.push(k);
    at = k.last + 1;
  }
  if (at <= end) {
    out.push({ kind: 'wrapper', first: at, last: end });
  }
  if (harness) {
    out.push({ kind: 'harness', first: harness, last: lines.length });
  }
  return out;
}

/**
 * The kernel calls of an output code in source order, and its kernels that no recorded call names (a report
 * written before calls were recorded, or a kernel whose call was not found), each once.
 */
export function kernelEntries(code: OutputCode, codeIndex: number): IKernelRef[] {
  const out: IKernelRef[] = (code.calls ?? []).map(c => ({
    code: codeIndex,
    kernel: c.kernel,
    line: c.line,
    nodes: c.nodes,
    aotNodes: c.aot_nodes
  }));
  const called = new Set(out.map(r => r.kernel));
  for (const k of code.kernels) {
    if (!called.has(k.name)) {
      out.push({ code: codeIndex, kernel: k.name, line: null, nodes: k.nodes ?? [], aotNodes: k.aot_nodes ?? [] });
    }
  }
  return out;
}

/** The AOT graph kind whose node names an output code's `aot_nodes` use. */
export function aotKindOf(code: OutputCode): string {
  return `aot_${code.kind}`;
}

/**
 * Node -> kernel and kernel -> node links of one report.
 */
export class KernelIndex {
  private readonly _entries: IKernelRef[][];

  constructor(private readonly _report: CompileReport) {
    this._entries = (_report.output_code ?? []).map((code, i) => kernelEntries(code, i));
  }

  /** The output codes of a report, by position. */
  get codes(): readonly OutputCode[] {
    return this._report.output_code ?? [];
  }

  /** Calls and kernels of one output code (see `kernelEntries`). */
  entriesOf(codeIndex: number): IKernelRef[] {
    return this._entries[codeIndex] ?? [];
  }

  /** The defined kernel of an output code by name (extern kernels have none). */
  kernelOf(codeIndex: number, name: string): Kernel | null {
    return this.codes[codeIndex]?.kernels.find(k => k.name === name) ?? null;
  }

  /**
   * The kernels computing a node of a graph: a Dynamo graph's node is looked up in every output code of its
   * compile (forward, backward, inference), an AOT forward / backward / inference graph's in the output code
   * of that kind. One entry per call (an extern kernel called twice for two nodes is two places).
   */
  kernelsOfNode(graph: Graph, name: string): IKernelRef[] {
    const out: IKernelRef[] = [];
    const seen = new Set<string>();
    this.codes.forEach((code, i) => {
      if (code.compile_id !== graph.compile_id) {
        return;
      }
      const dynamo = graph.kind === 'dynamo';
      if (!dynamo && graph.kind !== aotKindOf(code)) {
        return;
      }
      for (const ref of this.entriesOf(i)) {
        const names = dynamo ? ref.nodes : ref.aotNodes;
        const key = `${ref.code}\u0000${ref.kernel}\u0000${ref.line}`;
        if (names.includes(name) && !seen.has(key)) {
          seen.add(key);
          out.push(ref);
        }
      }
    });
    return out;
  }

  /**
   * The graphs a kernel's node names refer to: the Dynamo graph of its compile (for `nodes`) and the AOT graph
   * of its output code's kind (for `aotNodes`), when the report has them.
   */
  graphsOf(codeIndex: number): { dynamo: Graph | null; aot: Graph | null } {
    const code = this.codes[codeIndex];
    let dynamo: Graph | null = null;
    let aot: Graph | null = null;
    for (const graph of this._report.graphs) {
      if (!code || graph.compile_id !== code.compile_id) {
        continue;
      }
      if (graph.kind === 'dynamo' && !dynamo) {
        dynamo = graph;
      } else if (graph.kind === aotKindOf(code) && !aot) {
        aot = graph;
      }
    }
    return { dynamo, aot };
  }
}
