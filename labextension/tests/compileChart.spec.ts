/**
 * The compile-time chart (issue 12 item 6): the layout of a frame's nested phases on a time axis (depths,
 * positions to scale, the real time between a forward compile and its lazy backward compile cut out), the
 * time by kind, the DOM (bars at their place and width, instant marks, tooltips with name, time and share,
 * keyboard walking and zooming, Escape kept from the maximised pane), reports before minor 6, and the pane in
 * the real renderer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  describeBar,
  formatMs,
  formatPct,
  GAP_SHARE,
  layoutPhases,
  selfTimeByKind,
  tickStep
} from '../src/model/phaseLayout';
import { CompileChart } from '../src/view/panes/compileChart';
import type { CompileTimePane } from '../src/view/panes/compileTime';
import type { Phase, PhaseKind } from '../src/schema';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

function P(
  name: string,
  start_ms: number,
  ms: number,
  parent: number | null,
  kind: PhaseKind,
  label: string,
  extra: Partial<Phase> = {}
): Phase {
  return { name, ms, start_ms, parent, event: null, label, kind, instant: false, ...extra };
}

/**
 * A training step's phases as the engine writes them (the shape of an aot_eager run, in tree order): the
 * forward compile under 'dynamo', then the lazy backward compile 50 ms after the forward's compile ended.
 */
function trainingPhases(): Phase[] {
  return [
    P('dynamo', 0, 1000, null, 'dynamo', 'Dynamo: whole compile'), // 0
    P('_compile.compile_inner', 1, 998, 0, 'dynamo', 'frame compile', { event: 'entire_frame_compile' }), // 1
    P('compile_attempt_0', 2, 100, 1, 'dynamo', 'first attempt'), // 2
    P('bytecode_tracing', 5, 90, 2, 'dynamo', 'tracing the bytecode'), // 3
    P('compile_attempt_1', 110, 800, 1, 'dynamo', 'attempt 1 (after a restart)'), // 4
    P('bytecode_tracing', 112, 40, 4, 'dynamo', 'tracing the bytecode'), // 5
    P('OutputGraph.call_user_compiler', 160, 700, 4, 'backend', 'backend compile', { event: 'backend_compile' }), // 6
    P('autograd_cache_miss', 170, 0, 6, 'cache', 'AOTAutograd cache miss', { instant: true }), // 7
    P('create_aot_dispatcher_function', 200, 600, 6, 'aot', 'AOTAutograd'), // 8
    P('build_guards', 920, 60, 1, 'guards', 'building guards'), // 9
    P('backward._backward_impl', 1050, 200, null, 'backend', 'backward compile (at the first backward)', {
      event: 'entire_backward_compile'
    }) // 10
  ];
}

describe('layoutPhases', () => {
  it('nests the phases by depth and puts them on a compile-time axis, the gap between compiles cut out', () => {
    const layout = layoutPhases(trainingPhases());
    expect(layout.nested).toBe(true);
    expect(layout.totalMs).toBe(1200);
    expect(layout.rows).toBe(5); // dynamo > frame compile > attempt 1 > backend compile > AOTAutograd, cache mark
    expect(layout.bars.map(b => b.depth)).toEqual([0, 1, 2, 3, 2, 3, 3, 4, 4, 2, 0]);
    expect(layout.roots.map(r => r.index)).toEqual([0, 10]);
    const gap = 1200 * GAP_SHARE;
    expect(layout.gaps).toEqual([{ x: 1000, width: gap, ms: 50 }]);
    expect(layout.axisMs).toBeCloseTo(1200 + gap);
    expect(layout.segments).toEqual([
      { x: 0, compileMs: 0, ms: 1000 },
      { x: 1000 + gap, compileMs: 1000, ms: 200 }
    ]);
    const backward = layout.bars[10];
    expect(backward.x).toBeCloseTo(1000 + gap);
    expect(backward.pct).toBeCloseTo((200 / 1200) * 100);
    const backend = layout.bars[6];
    expect(backend.x).toBe(160);
    expect(backend.children.map(c => c.index)).toEqual([7, 8]);
    expect(backend.selfMs).toBe(100); // 700 minus AOTAutograd's 600; the instant mark takes no time
    expect(layout.bars[7].ms).toBe(0);
    expect(layout.bars[8].parent).toBe(backend);
  });

  it('adds up the time outside nested phases by kind to the whole compile', () => {
    const layout = layoutPhases(trainingPhases());
    const kinds = selfTimeByKind(layout);
    expect(kinds.reduce((sum, [, ms]) => sum + ms, 0)).toBeCloseTo(layout.totalMs);
    expect(kinds[0]).toEqual(['aot', 600]);
    expect(Object.fromEntries(kinds)).toMatchObject({ backend: 300, guards: 60 });
    expect(kinds.map(([k]) => k)).not.toContain('cache'); // an instant mark has no time
  });

  it('lists a report before minor 6 as ranked, flat entries', () => {
    const layout = layoutPhases([
      { name: 'bytecode_tracing', ms: 30 },
      { name: 'OutputGraph.call_user_compiler', ms: 120 }
    ]);
    expect(layout.nested).toBe(false);
    expect(layout.bars.map(b => b.pct)).toEqual([25, 100]);
  });
});

describe('numbers for people', () => {
  it('formats milliseconds, shares and tick steps', () => {
    expect([0.042, 3.25, 12.4, 2400].map(formatMs)).toEqual(['0.04 ms', '3.3 ms', '12 ms', '2.40 s']);
    expect([42.4, 3.51, 0.05, 0].map(formatPct)).toEqual(['42%', '3.5%', '<0.1%', '0%']);
    expect([1200, 14300, 7, 0].map(span => tickStep(span))).toEqual([200, 5000, 2, 1]);
  });

  it("says a phase's label, Dynamo's names, its time and its share", () => {
    const layout = layoutPhases(trainingPhases());
    expect(describeBar(layout.bars[6])).toEqual([
      'backend compile',
      'OutputGraph.call_user_compiler (backend_compile)',
      "700 ms · 58% of this frame's compile",
      'starts at +160 ms · 100 ms outside the phases inside it'
    ]);
    expect(describeBar(layout.bars[7])).toEqual([
      'AOTAutograd cache miss',
      'autograd_cache_miss',
      'instant event at +170 ms'
    ]);
  });
});

describe('CompileChart', () => {
  function chart(phases = trainingPhases()): CompileChart {
    const c = new CompileChart(phases, { compileId: '0/0' });
    document.body.appendChild(c.element);
    return c;
  }
  const bars = (c: CompileChart): HTMLElement[] =>
    Array.from(c.element.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-chartBar'));
  const pct = (value: string): number => parseFloat(value);

  it('draws every phase as a bar in its row, at its start and to scale', () => {
    const c = chart();
    const els = bars(c);
    expect(els).toHaveLength(11);
    const axis = c.layout.axisMs;
    for (const bar of c.layout.bars) {
      const el = c.barElement(bar)!;
      expect(el.style.top).toBe(`${bar.depth * 20}px`);
      expect(pct(el.style.left)).toBeCloseTo((bar.x / axis) * 100, 6);
      if (!bar.phase.instant) {
        expect(pct(el.style.width)).toBeCloseTo((bar.ms / axis) * 100, 6);
      }
      expect(el.getAttribute('role')).toBe('treeitem');
      expect(el.getAttribute('aria-level')).toBe(String(bar.depth + 1));
    }
    const mark = c.barElement(c.layout.bars[7])!;
    expect(mark.classList.contains('jp-mod-instant')).toBe(true);
    expect(mark.textContent).toBe('');
    expect(c.barElement(c.layout.bars[8])!.textContent).toBe('AOTAutograd');
    expect(c.barElement(c.layout.bars[8])!.dataset.kind).toBe('aot');
    expect(c.element.querySelectorAll('.jp-DynamoExplorer-chartGap')).toHaveLength(1);
    const legend = c.element.querySelector('.jp-DynamoExplorer-chartLegend')!.textContent!;
    expect(legend).toContain(
      'compile 1.20 s = Dynamo: whole compile 1.00 s + backward compile (at the first backward) 200 ms'
    );
    expect(legend).toContain('AOTAutograd 600 ms (50%)');
    const ticks = Array.from(c.element.querySelectorAll('.jp-DynamoExplorer-chartTick'), t => t.textContent);
    expect(ticks).toEqual(['0', '200 ms', '400 ms', '600 ms', '800 ms', '1.00 s', '1.20 s']);
  });

  it('shows name, time and share of the compile on hover and on focus', () => {
    const c = chart();
    const tip = c.element.querySelector<HTMLElement>('[role="tooltip"]')!;
    expect(tip.hidden).toBe(true);
    const backend = c.barElement(c.layout.bars[6])!;
    backend.dispatchEvent(new MouseEvent('mouseenter'));
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toContain('OutputGraph.call_user_compiler (backend_compile)');
    expect(tip.textContent).toContain("700 ms · 58% of this frame's compile");
    expect(backend.getAttribute('aria-describedby')).toBe(tip.id);
    backend.dispatchEvent(new MouseEvent('mouseleave'));
    expect(tip.hidden).toBe(true);
    c.focus(c.layout.bars[9]);
    expect(document.activeElement).toBe(c.barElement(c.layout.bars[9]));
    expect(tip.hidden).toBe(false);
    expect(tip.textContent).toContain('building guards');
  });

  it('is one tab stop whose arrow keys walk the bars', () => {
    const c = chart();
    const stops = () => bars(c).filter(el => el.getAttribute('tabindex') === '0');
    expect(stops()).toEqual([c.barElement(c.layout.bars[0])]);
    const key = (k: string): void => {
      (document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    };
    c.barElement(c.layout.bars[0])!.focus();
    const at = (): number => Number((document.activeElement as HTMLElement).dataset.index);
    key('ArrowDown');
    expect(at()).toBe(1);
    key('ArrowDown');
    expect(at()).toBe(2);
    key('ArrowRight');
    expect(at()).toBe(4); // the next bar on the row: attempt 1
    key('ArrowRight');
    expect(at()).toBe(9); // build_guards
    key('ArrowLeft');
    expect(at()).toBe(4);
    key('ArrowUp');
    expect(at()).toBe(1);
    key('End');
    expect(at()).toBe(10);
    expect(stops()).toEqual([c.barElement(c.layout.bars[10])]);
  });

  it('zooms to a bar on Enter or a click and out on Escape, keeping Escape from the maximised pane', () => {
    const c = chart();
    let escapes = 0;
    document.body.addEventListener('keydown', e => (escapes += e.key === 'Escape' ? 1 : 0));
    const aot = c.layout.bars[8];
    c.focus(aot);
    c.barElement(aot)!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(c.zoomed).toBe(aot);
    expect(c.barElement(aot)!.style.left).toBe('0%');
    expect(pct(c.barElement(aot)!.style.width)).toBeCloseTo(100);
    expect(c.barElement(c.layout.bars[9])!.classList.contains('jp-mod-out')).toBe(true); // build_guards is outside
    expect(pct(c.barElement(c.layout.bars[6])!.style.width)).toBeCloseTo(100); // the parent spans the window
    const crumbs = Array.from(c.element.querySelectorAll('.jp-DynamoExplorer-chartCrumb'), b => b.textContent);
    expect(crumbs).toEqual([
      'whole compile',
      'Dynamo: whole compile (1.00 s)',
      'frame compile (998 ms)',
      'attempt 1 (after a restart) (800 ms)',
      'backend compile (700 ms)',
      'AOTAutograd (600 ms)'
    ]);
    c.barElement(aot)!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(c.zoomed).toBeNull();
    expect(escapes).toBe(0);
    c.barElement(aot)!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(escapes).toBe(1); // not zoomed: Escape goes on to the view (a maximised pane is restored)
    c.barElement(c.layout.bars[10])!.click();
    expect(c.zoomed).toBe(c.layout.bars[10]);
    c.barElement(c.layout.bars[10])!.click(); // the zoomed bar again: out to its parent (none: the whole compile)
    expect(c.zoomed).toBeNull();
    (c.element.querySelector('.jp-DynamoExplorer-chartCrumb') as HTMLElement).click();
    expect(c.zoomed).toBeNull();
  });

  it('shows names from the report as text, never as markup', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const c = chart([P(evil, 0, 5, null, 'other', evil, { event: evil })]);
    expect(c.element.querySelector('img')).toBeNull();
    expect(c.barElement(c.layout.bars[0])!.textContent).toBe(evil);
  });

  it('draws a report before minor 6 as a ranked list', () => {
    const c = chart([
      { name: 'bytecode_tracing', ms: 30 },
      { name: 'OutputGraph.call_user_compiler', ms: 120 }
    ]);
    expect(c.element.dataset.nested).toBe('false');
    const rows = Array.from(c.element.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-chartListRow'));
    expect(rows.map(r => r.dataset.name)).toEqual(['OutputGraph.call_user_compiler', 'bytecode_tracing']);
    expect(c.element.textContent).toContain('before phases were nested');
  });
});

describe('the compile-time pane', () => {
  it("charts the selected frame's phases, and says so when a frame has none", async () => {
    const report = golden('training_step');
    const step = report.frames.find(f => f.code.name === 'train_step')!;
    step.phases = trainingPhases();
    const { widget, root } = await render(report);
    const el = pane(root, 'compile-time');
    pane(root, 'frames').querySelector<HTMLElement>(`[data-compile-id="${step.compile_id}"]`)!.click();
    await settled(root);
    const compileTime = widget.view!.panes.get('compile-time') as CompileTimePane;
    expect(compileTime.chart).not.toBeNull();
    expect(el.querySelectorAll('.jp-DynamoExplorer-chartBar')).toHaveLength(11);
    expect(el.querySelector('.jp-DynamoExplorer-paneTitleText')!.textContent).toBe(
      `Compile time of [${step.compile_id}]`
    );
    const other = report.frames.find(f => f !== step)!;
    pane(root, 'frames').querySelector<HTMLElement>(`[data-compile-id="${other.compile_id}"]`)!.click();
    await settled(root);
    expect(compileTime.chart).toBeNull();
    expect(el.querySelector('.jp-DynamoExplorer-empty')!.textContent).toBe('No phase times for this frame.');
  });
});
