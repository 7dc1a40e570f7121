/**
 * The step-through pane (issue 13 item 2) on the `trace_steps` golden: a real --trace-steps f run, where f
 * inlines `helper` (depth 1 steps) and breaks at print, so attempt 0 ends at the break (restart) and attempt 1
 * compiles the graph there. Checks the model (call stack, locals gathered per translator, next break) and the
 * pane: buttons, keys and the slider move the source line, the bytecode row, the stack and the FX nodes
 * together; the break step is marked; the empty state names the option.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callStack, localsAt, nextBreak, NOT_RECORDED } from '../src/model/traceStepsModel';
import { TraceStepsPane } from '../src/view/panes/traceSteps';
import type { TraceSteps } from '../src/schema';
import { golden, pane, render } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

function trace(): TraceSteps {
  const t = golden('trace_steps').trace_steps;
  if (!t) {
    throw new Error('the trace_steps golden has no trace');
  }
  return t;
}

describe('the trace model', () => {
  it('gives an inlined step the call stack that reached it', () => {
    const t = trace();
    const i = t.steps.findIndex(s => s.depth === 1);
    expect(i).toBeGreaterThan(0);
    const stack = callStack(t, i);
    expect(stack.map(s => s.name)).toEqual(['f', 'helper']);
    expect(stack[0].line).toBe(t.steps[i - 1].line); // the line of the call in f
    expect(callStack(t, 0).map(s => s.name)).toEqual(['f']);
  });

  it('gathers the locals of a translator from its earlier steps, and says which changed', () => {
    const t = trace();
    const store = t.steps.findIndex(s => s.opname === 'STORE_FAST' && s.argrepr === "'y'");
    const { values, changed } = localsAt(t, store + 1);
    expect([...values.keys()].sort()).toEqual(['n', 'x', 'y']);
    expect(values.get('y')).toMatch(/^TensorVariable\(y: float32\[3, 4\]\)$/);
    expect(changed.has('y')).toBe(true);
    expect(changed.has('x')).toBe(false);
    // the helper's translator has its own locals: x only
    const inl = t.steps.findIndex(s => s.depth === 1);
    expect([...localsAt(t, inl).values.keys()]).toEqual(['x']);
  });

  it('finds the break steps in order, wrapping around', () => {
    const t = trace();
    const first = nextBreak(t, 0);
    expect(first).not.toBeNull();
    expect(t.steps[first!].graph_break?.action).toBe('restart');
    const second = nextBreak(t, first! + 1);
    expect(t.steps[second!].graph_break?.action).toBe('compiled');
    expect(t.steps[second!].attempt).toBe(1);
    expect(nextBreak(t, second! + 1)).toBe(first);
  });
});

describe('the step-through pane', () => {
  it('moves the source line, bytecode row, stack and FX nodes together', async () => {
    const report = golden('trace_steps');
    const { widget, root } = await render(report);
    const el = pane(root, 'trace-steps');
    const current = (): { line?: string; offset?: string; nodes: string[]; stack: string[]; step?: string } => ({
      line: el.querySelector<HTMLElement>('.jp-DynamoExplorer-traceSource .jp-mod-current')?.dataset.line,
      offset: el.querySelector<HTMLElement>('.jp-DynamoExplorer-traceBytecode .jp-mod-current')?.dataset.offset,
      nodes: [...el.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-traceNodes [data-node]')].map(
        n => n.dataset.node!
      ),
      stack: [...el.querySelectorAll('.jp-DynamoExplorer-traceStack li')].map(li => li.textContent ?? ''),
      step: el.dataset.step
    });
    const t = report.trace_steps!;
    expect(current().step).toBe('0');
    expect(current().offset).toBe(String(t.steps[0].offset));
    expect(current().line).toBe(String(t.steps[0].line));
    const click = (action: string): void =>
      el.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`)!.click();
    click('forward');
    expect(current().step).toBe('1');
    expect(current().offset).toBe(String(t.steps[1].offset));
    // the step that adds sin, inside the inlined helper: its nodes, its code, its depth in the breadcrumb
    const sin = t.steps.findIndex(s => s.fx_nodes.some(n => n.name === 'sin'));
    const slider = el.querySelector<HTMLInputElement>('input[type=range]')!;
    slider.value = String(sin);
    slider.dispatchEvent(new Event('input'));
    expect(current().nodes).toEqual(['sin']);
    expect(el.querySelector('.jp-DynamoExplorer-traceFile')?.textContent).toMatch(/^helper/);
    expect(el.querySelector('.jp-DynamoExplorer-traceCrumbs')?.textContent).toMatch(/^f:\d+ › helper:\d+$/);
    const before = current();
    // keys: ArrowRight / j forward, ArrowLeft / k back, Home / End
    const key = (k: string): void => {
      el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    };
    key('ArrowRight');
    expect(current().step).toBe(String(sin + 1));
    expect(current().stack).toEqual(t.steps[sin + 1].stack);
    key('k');
    expect(current()).toEqual(before);
    key('End');
    expect(current().step).toBe(String(t.steps.length - 1));
    key('Home');
    expect(current().step).toBe('0');
    click('back'); // clamped at the first step
    expect(current().step).toBe('0');
    // the break: marked, with what Dynamo does there
    click('break');
    const brk = Number(current().step);
    expect(t.steps[brk].graph_break?.action).toBe('restart');
    expect(el.classList.contains('jp-mod-break')).toBe(true);
    expect(el.querySelector('.jp-DynamoExplorer-traceBreakHead')?.textContent).toMatch(/restarts the analysis/);
    expect(el.querySelector('.jp-DynamoExplorer-traceAttempt')?.textContent).toMatch(/^Attempt 0/);
    expect(el.querySelector('.jp-DynamoExplorer-traceBreakType')?.textContent).toBe(t.steps[brk].graph_break?.gb_type);
    click('break');
    expect(el.querySelector('.jp-DynamoExplorer-traceBreakHead')?.textContent).toMatch(/compiles the graph so far/);
    click('back'); // attempt 1 ends at its break: the step before it broke nothing
    expect(el.classList.contains('jp-mod-break')).toBe(false);
    widget.dispose();
  });

  it('says how to record a trace when the run had none', async () => {
    const report = golden('trace_steps');
    report.trace_steps = null;
    const { root } = await render(report);
    expect(pane(root, 'trace-steps').textContent).toContain(NOT_RECORDED);
    expect(NOT_RECORDED).toContain('--trace-steps');
  });

  it('says why when no frame matched', async () => {
    const report = golden('trace_steps');
    const t = report.trace_steps!;
    Object.assign(t, { compile_id: null, steps: [], attempts: [], codes: [], note: "no compiled frame matched 'g'" });
    const { root } = await render(report);
    const el = pane(root, 'trace-steps');
    expect(el.textContent).toContain("no compiled frame matched 'g'");
    expect(el.querySelector('button[data-action="forward"]')).toBeNull();
  });

  it('is one pane object per view, whatever frame is selected', () => {
    expect(typeof TraceStepsPane).toBe('function');
  });
});
