/**
 * Inductor's output code in the renderer, on the training_step golden (real inductor, CPU): the parts of the
 * wrapper (kernels.ts), the node <-> kernel indexes, and the code pane's inductor tab (kernel index, folded
 * setup, kernel titles linking their nodes), node details linking kernels, and code rows linked to source lines.
 */
import { describe, expect, it } from 'vitest';
import { KernelIndex, kernelEntries, segments } from '../src/model/kernels';
import type { CompileReport, Graph } from '../src/schema';
import { golden, pane, render, settled } from './helpers';

const report: CompileReport = golden('training_step');
const forward = report.output_code.findIndex(o => o.kind === 'forward');
const backward = report.output_code.findIndex(o => o.kind === 'backward');
const graphOf = (kind: string): Graph => report.graphs.find(g => g.kind === kind)!;

/** Wait a little for drawing that is not awaited (the FX picture after a focus). */
const tick = (ms = 30): Promise<void> => new Promise(r => setTimeout(r, ms));

describe('the parts of an output code', () => {
  it('splits setup, each kernel, the wrapper and the harness', () => {
    const code = report.output_code[forward];
    const lines = code.source.split('\n');
    const parts = segments(code.source);
    expect(parts.map(p => p.kind)).toEqual(['setup', 'kernel', 'kernel', 'wrapper', 'harness']);
    const [setup, relu, , wrapper, harness] = parts;
    expect(setup.first).toBe(1);
    expect(lines.slice(0, setup.last).join('\n')).toContain(
      'from torch._inductor.select_algorithm import extern_kernels'
    );
    expect(relu.kernel).toBe('cpp_fused_relu_0');
    expect(lines[relu.first - 1]).toMatch(/^cpp_fused_relu_0 = async_compile\.cpp_pybinding\(/);
    expect(lines.slice(relu.first - 1, relu.last).join('\n')).toMatch(/\n'''\)\n*$/);
    expect(lines.slice(relu.body!.first - 1, relu.body!.last).join('\n')).toBe(code.kernels[0].source);
    expect(lines.slice(wrapper.first - 1, wrapper.last).join('\n')).toContain('def call(self, args):');
    expect(lines[harness.first - 1]).toBe('def get_args():');
    expect(harness.last).toBe(lines.length);
    // every line is in exactly one part
    expect(parts.reduce((n, p) => n + p.last - p.first + 1, 0)).toBe(lines.length);
  });

  it('keeps a source without kernels whole', () => {
    expect(segments('import torch\n\ndef call(args):\n    return args\n').map(p => p.kind)).toEqual([
      'setup',
      'wrapper'
    ]);
    expect(segments('x = 1').map(p => p.kind)).toEqual(['wrapper']);
  });
});

describe('node <-> kernel indexes', () => {
  const index = new KernelIndex(report);

  it('finds the C++ kernel of the relu and the extern addmm of each linear', () => {
    const dynamo = graphOf('dynamo');
    const relu = dynamo.nodes.find(n => n.target.includes('relu'))!.name;
    expect(index.kernelsOfNode(dynamo, relu).map(r => r.kernel)).toEqual(['cpp_fused_relu_0']);
    const linears = dynamo.nodes.filter(n => n.target.includes('linear'));
    expect(linears).toHaveLength(2);
    for (const linear of linears) {
      const [ref, ...rest] = index.kernelsOfNode(dynamo, linear.name);
      expect(rest).toEqual([]);
      expect(ref.kernel).toBe('extern_kernels.addmm');
      expect(report.output_code[ref.code].source.split('\n')[ref.line! - 1].trim()).toMatch(/^extern_kernels\.addmm\(/);
    }
  });

  it('links AOT graph nodes to the kernels of the output code of their kind only', () => {
    const refs = index.kernelsOfNode(graphOf('aot_backward'), 'mm');
    expect(refs.map(r => [r.code, r.kernel])).toEqual([[backward, 'extern_kernels.mm']]);
    expect(index.kernelsOfNode(graphOf('aot_forward'), 'relu').map(r => [r.code, r.kernel])).toEqual([
      [forward, 'cpp_fused_relu_0']
    ]);
    expect(index.kernelsOfNode(graphOf('aot_joint'), 'relu')).toEqual([]);
  });

  it('lists the calls in order, then kernels no call names', () => {
    const code = structuredClone(report.output_code[forward]);
    expect(kernelEntries(code, 0).map(r => r.kernel)).toEqual(code.calls!.map(c => c.kernel));
    code.calls = undefined; // a report written before calls were recorded
    expect(kernelEntries(code, 0).map(r => [r.kernel, r.line])).toEqual(code.kernels.map(k => [k.name, null]));
  });
});

describe('the inductor tab', () => {
  const openTab = async (root: HTMLElement, code: number): Promise<HTMLElement> => {
    const pane_ = pane(root, 'code');
    pane_.querySelector<HTMLElement>(`button[data-tab="output-${code}"]`)!.click();
    await tick();
    return pane_;
  };

  it('opens on the kernel index with the setup folded', async () => {
    const { root } = await render(report);
    const code = await openTab(root, forward);
    const index = code.querySelector('.jp-DynamoExplorer-kernelIndex')!;
    expect(Array.from(index.querySelectorAll('li')).map(li => (li as HTMLElement).dataset.kernel)).toEqual(
      report.output_code[forward].calls!.map(c => c.kernel)
    );
    const fold = code.querySelector<HTMLElement>('.jp-DynamoExplorer-codeFold[data-fold="setup"]')!;
    expect(fold.textContent).toMatch(/^imports and setup · \d+ lines/);
    expect(fold.classList.contains('jp-mod-open')).toBe(false);
    fold.querySelector<HTMLElement>('.jp-DynamoExplorer-codeFoldToggle')!.click();
    expect(fold.classList.contains('jp-mod-open')).toBe(true);
    // the first thing after the index and the fold is the first kernel
    const first = code.querySelector('.jp-DynamoExplorer-outputCode > section')!;
    expect(first.previousElementSibling).toBe(fold);
    expect((first as HTMLElement).dataset.kernel).toBe('cpp_fused_relu_0');
    expect(code.querySelector('.jp-DynamoExplorer-codeFold[data-fold="harness"]')).not.toBeNull();
    // each kernel's source is there once (not repeated below the wrapper)
    expect(code.textContent!.split('kernel(float* in_out_ptr0)').length - 1).toBe(1);
  });

  it('titles each kernel with its nodes, and a node link selects the node in the FX pane', async () => {
    const { root } = await render(report);
    const code = await openTab(root, forward);
    const dynamo = graphOf('dynamo');
    const relu = dynamo.nodes.find(n => n.target.includes('relu'))!.name;
    const section = code.querySelector<HTMLElement>('section[data-kernel="cpp_fused_relu_0"]')!;
    const link = section.querySelector<HTMLElement>(`.jp-DynamoExplorer-kernelTitle [data-node="${relu}"]`)!;
    expect(link.dataset.graph).toBe(String(dynamo.id));
    link.click();
    await settled(root);
    await tick(60);
    const fx = pane(root, 'fx-graph');
    expect(fx.querySelector('.jp-DynamoExplorer-detailsTitle')!.textContent).toBe(relu);
    expect(fx.querySelector(`svg g.node[data-node="${relu}"]`)!.classList.contains('jp-mod-selected')).toBe(true);
  });

  it('a node kernel link opens the inductor tab on that kernel', async () => {
    const { root } = await render(report);
    const fx = pane(root, 'fx-graph');
    const dynamo = graphOf('dynamo');
    const relu = dynamo.nodes.find(n => n.target.includes('relu'))!.name;
    fx.querySelector(`svg g.node[data-node="${relu}"]`)!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const kernel = fx.querySelector<HTMLElement>('.jp-DynamoExplorer-nodeDetails [data-kernel="cpp_fused_relu_0"]')!;
    expect(kernel.closest('.jp-DynamoExplorer-field')!.querySelector('dt')!.textContent).toBe('kernel');
    kernel.click();
    await settled(root);
    const code = pane(root, 'code');
    expect(code.querySelector(`button[data-tab="output-${forward}"]`)!.getAttribute('aria-selected')).toBe('true');
    const section = code.querySelector<HTMLElement>('section[data-kernel="cpp_fused_relu_0"]')!;
    expect(section.classList.contains('jp-mod-target')).toBe(true);
    // an extern kernel: its call row
    const linear = dynamo.nodes.find(n => n.target.includes('linear'))!.name;
    fx.querySelector(`svg g.node[data-node="${linear}"]`)!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    fx.querySelector<HTMLElement>('.jp-DynamoExplorer-nodeDetails [data-kernel="extern_kernels.addmm"]')!.click();
    await settled(root);
    const call = code.querySelector<HTMLElement>('.jp-DynamoExplorer-row.jp-mod-target')!;
    expect(call.dataset.call).toBe('extern_kernels.addmm');
    expect(call.querySelector(`[data-node="${linear}"]`)).not.toBeNull();
    expect(section.classList.contains('jp-mod-target')).toBe(false);
  });

  it('links code rows to the source line of their nodes', async () => {
    const { root } = await render(report);
    const code = pane(root, 'code');
    const dynamo = graphOf('dynamo');
    const line = dynamo.nodes.find(n => n.target.includes('relu'))!.line!;
    // the Dynamo graph tab (opened first): the `# File:` comment and each node's row
    const rows = Array.from(code.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-row[data-line-key]'));
    expect(rows.length).toBeGreaterThan(dynamo.nodes.length - 2);
    expect(new Set(rows.map(r => r.dataset.lineKey))).toEqual(new Set([`cell:${line}`]));
    const source = pane(root, 'source').querySelector<HTMLElement>(`.jp-DynamoExplorer-row[data-line="${line}"]`)!;
    rows[0].dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    expect(source.classList.contains('jp-mod-linked')).toBe(true);
    // the inductor tab: a kernel's rows and its call
    const tab = await openTab(root, forward);
    const kernelRows = tab.querySelectorAll<HTMLElement>(
      'section[data-kernel="cpp_fused_relu_0"] .jp-DynamoExplorer-row'
    );
    expect(Array.from(kernelRows).every(r => r.dataset.lineKey === `cell:${line}`)).toBe(true);
    expect(tab.querySelector<HTMLElement>('[data-call="cpp_fused_relu_0"]')!.dataset.lineKey).toBe(`cell:${line}`);
    // the setup is no source line's
    expect(tab.querySelector('[data-fold="setup"] [data-line-key]')).toBeNull();
  });
});
