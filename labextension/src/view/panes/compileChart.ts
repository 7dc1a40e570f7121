/**
 * The compile-time chart of one frame: its phases as an icicle on a time axis (model/phaseLayout.ts places them).
 * Each phase is a bar in the row of its depth, to scale; instant events (a cache lookup's outcome) are thin marks.
 * Dynamo's names stay as they are, with the engine's readable label next to them.
 *
 * `CompileChart` is the DOM. Hover or focus a bar for its name, time and share of the frame's compile; the chart
 * is one tab stop whose arrow keys walk the bars (left/right along a row, up to the parent, down to the first
 * child), Enter or a click zooms to a bar, Escape zooms out. A report before minor 6 (flat, overlapping entries)
 * is drawn as a ranked list of bars instead.
 */
import { clear, h } from '../../dom';
import {
  describeBar,
  formatMs,
  formatPct,
  KIND_LABELS,
  layoutPhases,
  selfTimeByKind,
  tickStep,
  type IBar,
  type IChartLayout
} from '../../model/phaseLayout';
import type { Phase } from '../../schema';

/** Row height in pixels (the CSS uses the same number through `--jp-DynamoExplorer-chart-row`). */
export const ROW_PX = 20;

/** What a chart needs from its host. */
export interface ICompileChartOptions {
  /** The frame's compile id, for the accessible name. */
  readonly compileId: string;
}

/**
 * The chart of one frame's phases (see the module comment). `element` is the whole chart.
 */
export class CompileChart {
  /** The chart: legend, zoom bar, rows of bars, axis and tooltip. */
  readonly element: HTMLElement;
  /** Where every bar went. */
  readonly layout: IChartLayout;
  private readonly _bars = new Map<IBar, HTMLElement>();
  private readonly _byElement = new Map<HTMLElement, IBar>();
  private readonly _rows: HTMLElement;
  private readonly _plot: HTMLElement;
  private readonly _axis: HTMLElement;
  private readonly _tip: HTMLElement;
  private readonly _zoomBar: HTMLElement;
  private _zoom: IBar | null = null;
  private _focused: IBar | null = null;

  constructor(phases: readonly Phase[], options: ICompileChartOptions) {
    this.layout = layoutPhases(phases);
    this._tip = h('div', { class: 'jp-DynamoExplorer-chartTip', attrs: { role: 'tooltip', id: tipId() } });
    this._tip.hidden = true;
    this._zoomBar = h('div', { class: 'jp-DynamoExplorer-chartZoom' });
    this._axis = h('div', { class: 'jp-DynamoExplorer-chartAxis', attrs: { 'aria-hidden': 'true' } });
    this._rows = h('div', {
      class: 'jp-DynamoExplorer-chartRows',
      attrs: {
        role: 'tree',
        'aria-label': `Compile phases of [${options.compileId}], ${formatMs(this.layout.totalMs)}`
      }
    });
    this._plot = h('div', { class: 'jp-DynamoExplorer-chartPlot' }, this._rows, this._tip);
    this.element = h(
      'div',
      { class: 'jp-DynamoExplorer-compileChart', data: { nested: String(this.layout.nested) } },
      this._legend(),
      this.layout.nested ? this._zoomBar : null,
      this._plot,
      this.layout.nested ? this._axis : null
    );
    if (this.layout.nested) {
      this._drawBars();
      this._rows.addEventListener('keydown', this._onKey);
      this.zoom(null);
    } else {
      this._drawList();
    }
  }

  /** The bar zoomed to now (null: the whole compile). */
  get zoomed(): IBar | null {
    return this._zoom;
  }

  /** The element drawn for a bar. */
  barElement(bar: IBar): HTMLElement | undefined {
    return this._bars.get(bar);
  }

  /**
   * Zoom the axis to a bar's span (null or an instant: the whole compile) and redraw the positions.
   */
  zoom(bar: IBar | null): void {
    this._zoom = bar && bar.ms > 0 ? bar : null;
    const [x0, x1] = this._window();
    const span = x1 - x0 || 1;
    for (const [b, el] of this._bars) {
      const left = Math.max(b.x, x0);
      const right = Math.min(b.x + b.ms, x1);
      const out = b.phase.instant ? b.x < x0 || b.x > x1 : right <= left;
      el.classList.toggle('jp-mod-out', out);
      el.style.left = `${((left - x0) / span) * 100}%`;
      el.style.width = b.phase.instant ? '' : `${(Math.max(0, right - left) / span) * 100}%`;
      el.classList.toggle('jp-mod-zoomed', b === this._zoom);
    }
    for (const el of this._rows.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-chartGap')) {
      const x = Number(el.dataset.x);
      const w = Number(el.dataset.width);
      el.hidden = x + w <= x0 || x >= x1;
      el.style.left = `${((Math.max(x, x0) - x0) / span) * 100}%`;
      el.style.width = `${((Math.min(x + w, x1) - Math.max(x, x0)) / span) * 100}%`;
    }
    this._drawAxis(x0, x1);
    this._drawZoomBar();
  }

  /** Show the tooltip of a bar (null: hide it). */
  showTip(bar: IBar | null): void {
    const tip = this._tip;
    if (!bar) {
      tip.hidden = true;
      return;
    }
    clear(tip);
    describeBar(bar).forEach((line, i) =>
      tip.appendChild(
        h('div', {
          class:
            i === 0 ? 'jp-DynamoExplorer-chartTipTitle' : i === 1 && bar.phase.label ? 'jp-DynamoExplorer-mono' : '',
          text: line
        })
      )
    );
    tip.hidden = false;
    const el = this._bars.get(bar);
    if (!el) {
      return;
    }
    el.setAttribute('aria-describedby', tip.id);
    if (!this.layout.nested) {
      tip.style.left = '0';
      tip.style.top = `${el.offsetTop + ROW_PX}px`;
      return;
    }
    // beside the bar: under it in the upper half of the rows, above it in the lower half; from its left edge
    // in the left half of the axis, from its right edge in the right half
    const left = parseFloat(el.style.left) || 0;
    const width = parseFloat(el.style.width) || 0;
    const below = bar.depth < this.layout.rows / 2;
    tip.style.top = below ? `${(bar.depth + 1) * ROW_PX + 2}px` : '';
    tip.style.bottom = below ? '' : `${(this.layout.rows - bar.depth) * ROW_PX + 2}px`;
    const rightHalf = left + width / 2 > 50;
    tip.style.left = rightHalf ? '' : `${left}%`;
    tip.style.right = rightHalf ? `${Math.max(0, 100 - left - width)}%` : '';
  }

  /** Move the keyboard focus to a bar (the chart's one tab stop follows it). */
  focus(bar: IBar): void {
    if (this._bars.get(bar)?.classList.contains('jp-mod-out')) {
      this.zoom(null);
    }
    if (this._focused) {
      this._bars.get(this._focused)?.setAttribute('tabindex', '-1');
    }
    this._focused = bar;
    const el = this._bars.get(bar);
    if (el) {
      el.setAttribute('tabindex', '0');
      el.focus();
    }
  }

  private _window(): [number, number] {
    const z = this._zoom;
    return z ? [z.x, z.x + z.ms] : [0, this.layout.axisMs];
  }

  private _legend(): HTMLElement {
    const { totalMs } = this.layout;
    const legend = h('div', { class: 'jp-DynamoExplorer-chartLegend' });
    if (!this.layout.nested) {
      legend.appendChild(
        h('span', {
          class: 'jp-DynamoExplorer-muted',
          text: 'This report was written before phases were nested (schema minor 6): each line sums one phase name, and phases overlap.'
        })
      );
      return legend;
    }
    const { roots } = this.layout;
    legend.appendChild(
      h(
        'span',
        {},
        h('strong', { text: `compile ${formatMs(totalMs)}` }),
        roots.length > 1 ? ` = ${roots.map(r => `${r.phase.label || r.phase.name} ${formatMs(r.ms)}`).join(' + ')}` : ''
      )
    );
    legend.appendChild(h('span', { class: 'jp-DynamoExplorer-muted', text: 'by kind, outside nested phases:' }));
    for (const [kind, ms] of selfTimeByKind(this.layout)) {
      legend.appendChild(
        h(
          'span',
          { class: 'jp-DynamoExplorer-chartKind', data: { kind } },
          h('span', { class: `jp-DynamoExplorer-chartSwatch jp-DynamoExplorer-phase-${kind}` }),
          `${KIND_LABELS[kind]} ${formatMs(ms)} (${formatPct(totalMs > 0 ? (ms / totalMs) * 100 : 0)})`
        )
      );
    }
    return legend;
  }

  private _drawBars(): void {
    const { layout } = this;
    this._plot.style.height = `${layout.rows * ROW_PX}px`;
    for (const gap of layout.gaps) {
      this._rows.appendChild(
        h('div', {
          class: 'jp-DynamoExplorer-chartGap',
          title: `${formatMs(gap.ms)} between these compiles (not drawn to scale)`,
          data: { x: String(gap.x), width: String(gap.width) },
          attrs: { 'aria-hidden': 'true' }
        })
      );
    }
    for (const bar of layout.bars) {
      const p = bar.phase;
      const kind = p.kind ?? 'other';
      const siblings = bar.parent ? bar.parent.children : layout.roots;
      const el = h(
        'div',
        {
          class: `jp-DynamoExplorer-chartBar jp-DynamoExplorer-phase-${kind}${p.instant ? ' jp-mod-instant' : ''}`,
          data: {
            index: String(bar.index),
            parent: bar.parent ? String(bar.parent.index) : '',
            name: p.name,
            kind,
            depth: String(bar.depth),
            ms: String(bar.ms)
          },
          attrs: {
            role: 'treeitem',
            tabindex: '-1',
            'aria-level': String(bar.depth + 1),
            'aria-setsize': String(siblings.length),
            'aria-posinset': String(siblings.indexOf(bar) + 1),
            'aria-label': describeBar(bar).join(', ')
          }
        },
        p.instant ? null : h('span', { class: 'jp-DynamoExplorer-chartLabel', text: p.label || p.name })
      );
      el.style.top = `${bar.depth * ROW_PX}px`;
      el.addEventListener('mouseenter', () => this.showTip(bar));
      el.addEventListener('mouseleave', () => this.showTip(this._focusedInside() ? this._focused : null));
      el.addEventListener('focus', () => {
        this._focused = bar;
        this.showTip(bar);
      });
      el.addEventListener('blur', () => this.showTip(null));
      el.addEventListener('click', () => {
        this.focus(bar);
        this.zoom(this._zoom === bar ? bar.parent : bar);
      });
      this._bars.set(bar, el);
      this._byElement.set(el, bar);
      this._rows.appendChild(el);
    }
    const first = layout.roots[0];
    if (first) {
      this._bars.get(first)!.setAttribute('tabindex', '0');
      this._focused = first;
    }
  }

  private _drawList(): void {
    const { layout } = this;
    this._rows.classList.add('jp-DynamoExplorer-chartList');
    const ranked = [...layout.bars].sort((a, b) => b.ms - a.ms);
    ranked.forEach(bar => {
      const el = h(
        'div',
        {
          class: 'jp-DynamoExplorer-chartListRow',
          data: { index: String(bar.index), name: bar.phase.name },
          attrs: {
            role: 'treeitem',
            tabindex: '-1',
            'aria-level': '1',
            'aria-label': `${bar.phase.name}, ${formatMs(bar.ms)}`
          }
        },
        h('span', { class: 'jp-DynamoExplorer-chartListName jp-DynamoExplorer-mono', text: bar.phase.name }),
        h(
          'span',
          { class: 'jp-DynamoExplorer-chartListTrack' },
          h('span', { class: 'jp-DynamoExplorer-chartListFill jp-DynamoExplorer-phase-other' })
        ),
        h('span', { class: 'jp-DynamoExplorer-chartListMs', text: formatMs(bar.ms) })
      );
      (el.querySelector('.jp-DynamoExplorer-chartListFill') as HTMLElement).style.width = `${bar.pct}%`;
      this._bars.set(bar, el);
      this._rows.appendChild(el);
    });
    const first = ranked[0];
    if (first) {
      this._bars.get(first)!.setAttribute('tabindex', '0');
      this._focused = first;
    }
    this._rows.addEventListener('keydown', event => {
      const i = ranked.indexOf(this._focused ?? ranked[0]);
      const next = event.key === 'ArrowDown' ? ranked[i + 1] : event.key === 'ArrowUp' ? ranked[i - 1] : undefined;
      if (next) {
        event.preventDefault();
        this.focus(next);
      }
    });
  }

  private _drawAxis(x0: number, x1: number): void {
    const axis = this._axis;
    clear(axis);
    const span = x1 - x0 || 1;
    // ticks in compile time, on each stretch drawn to scale that shows
    const visible = this.layout.segments.filter(s => s.x + s.ms > x0 && s.x < x1);
    const compileSpan = visible.reduce((sum, s) => sum + Math.min(s.x + s.ms, x1) - Math.max(s.x, x0), 0);
    const step = tickStep(compileSpan);
    let last = -Infinity;
    for (const s of visible) {
      const from = s.compileMs + Math.max(0, x0 - s.x);
      const to = s.compileMs + Math.min(s.ms, x1 - s.x);
      for (let t = Math.ceil(from / step - 1e-9) * step; t <= to + 1e-9; t += step) {
        if (t <= last + 1e-9) {
          continue; // the end of the stretch before a gap is already marked
        }
        last = t;
        const x = s.x + (t - s.compileMs);
        const tick = h('span', { class: 'jp-DynamoExplorer-chartTick', text: t === 0 ? '0' : formatMs(t) });
        const at = ((x - x0) / span) * 100;
        tick.style.left = `${at}%`;
        tick.classList.toggle('jp-mod-end', at > 92); // its text to the left of the mark, inside the axis
        axis.appendChild(tick);
      }
    }
  }

  private _drawZoomBar(): void {
    const bar = this._zoomBar;
    clear(bar);
    const path: IBar[] = [];
    for (let b = this._zoom; b; b = b.parent) {
      path.unshift(b);
    }
    const crumb = (text: string, target: IBar | null, current: boolean): HTMLElement => {
      const btn = h('button', {
        class: `jp-DynamoExplorer-chartCrumb${current ? ' jp-mod-current' : ''}`,
        text,
        onclick: () => this.zoom(target)
      });
      btn.type = 'button';
      if (current) {
        btn.setAttribute('aria-current', 'true');
      }
      return btn;
    };
    bar.appendChild(crumb('whole compile', null, path.length === 0));
    for (const b of path) {
      bar.appendChild(h('span', { class: 'jp-DynamoExplorer-muted', text: ' › ' }));
      bar.appendChild(crumb(`${b.phase.label || b.phase.name} (${formatMs(b.ms)})`, b, b === this._zoom));
    }
    if (path.length === 0) {
      bar.appendChild(
        h('span', {
          class: 'jp-DynamoExplorer-muted',
          text: ' · click a bar (or Enter) to zoom to it, Escape to zoom out; arrow keys move between bars'
        })
      );
    }
  }

  private _focusedInside(): boolean {
    const active = this.element.ownerDocument.activeElement;
    return !!active && this._byElement.has(active as HTMLElement);
  }

  /** Arrow keys walk the bars, Enter zooms, Escape zooms out. */
  private readonly _onKey = (event: KeyboardEvent): void => {
    const bar = this._focused ?? this.layout.roots[0];
    if (!bar) {
      return;
    }
    let next: IBar | null | undefined;
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowLeft': {
        const row = this.layout.bars.filter(b => b.depth === bar.depth).sort((a, b) => a.x - b.x);
        next = row[row.indexOf(bar) + (event.key === 'ArrowRight' ? 1 : -1)];
        break;
      }
      case 'ArrowUp':
        next = bar.parent;
        break;
      case 'ArrowDown':
        next = bar.children[0];
        break;
      case 'Home':
        next = this.layout.roots[0];
        break;
      case 'End':
        next = this.layout.roots[this.layout.roots.length - 1];
        break;
      case 'Enter':
      case ' ':
        event.preventDefault();
        this.zoom(this._zoom === bar ? bar.parent : bar);
        this.focus(bar);
        return;
      case 'Escape':
        if (this._zoom) {
          event.preventDefault();
          event.stopPropagation(); // a maximised pane stays maximised
          this.zoom(null);
          this.focus(bar);
        }
        return;
      default:
        return;
    }
    event.preventDefault();
    if (next) {
      this.focus(next);
    }
  };
}

let tipCount = 0;

/** A unique id for a chart's tooltip (aria-describedby). */
function tipId(): string {
  tipCount += 1;
  return `jp-DynamoExplorer-chartTip-${tipCount}`;
}
