/**
 * Profile pane, "Why is it slow" (issue 12 items 1-3): did the compile help, and what does each graph, graph
 * break and recompile cost. Drawn once for the report from `profile` (`--profile`) and `eager_baseline`
 * (`--compare-eager`), through profileModel.ts:
 * - the run split (compiled | eager | compile) as one stacked bar, and with a baseline the speedup over eager,
 *   when the compile pays back, and each compiled function's speedup;
 * - graphs ranked by time (a row opens its graph in the FX pane), each one's first call (its compile work and
 *   autotuning) apart from the calls after it, cache entries (hits and time), eager time by cause (a graph
 *   break's row shows its line), captured-op coverage as in TorchDynamo Update 5, the backward split, on a GPU
 *   the device time no graph launched (eager kernels, autotuning's), and how it was all measured.
 * Without a profile it says how to get one. Tables sort by a click (or Enter) on a column's head.
 */
import type { IViewContext } from '../context';
import { button, h, type Child } from '../dom';
import {
  backwardParts,
  baselineOf,
  CAUSE_TEXT,
  coverageRows,
  deviceParts,
  eagerRows,
  entryRows,
  formatMs,
  formatPct,
  formatSpeedup,
  firstCallText,
  frameLabel,
  functionRows,
  noProfileText,
  paybackRuns,
  paybackSentence,
  profileOf,
  rankGraphs,
  runSplit,
  sortRows,
  speedupSentence,
  splitText,
  steadyText,
  type IEagerRow,
  type IGraphRow,
  type SortDir
} from '../profileModel';
import type { EagerBaseline, Frame, Profile } from '../schema';
import { Pane } from './pane';

/** One column of a sortable table. */
interface IColumn<T> {
  /** The column's head, in Dynamo's or the profiler's words. */
  label: string;
  /** What the column holds (the head's tooltip). */
  title?: string;
  /** A number column: right-aligned, sorted the most first on the first click. */
  numeric?: boolean;
  /** Long text (a graph break's name and line, kernel names): the cell wraps instead of being cut. */
  wrap?: boolean;
  /** The value the column sorts by; none: not sortable. */
  sort?: (row: T) => number | string;
  /** The cell's content. */
  cell: (row: T) => Child;
}

/** The classes of a column's cells: right-aligned numbers, wrapping text. */
function cellClass<T>(column: IColumn<T>): string | undefined {
  return (
    [column.numeric ? 'jp-mod-number' : '', column.wrap ? 'jp-mod-wrap' : ''].filter(Boolean).join(' ') || undefined
  );
}

/**
 * The profile pane.
 */
export class ProfilePane extends Pane {
  /** The rows marked with a compile id (graphs, entries, eager causes, coverage), for the shown frame's mark. */
  private readonly _framed: HTMLElement[] = [];

  constructor(ctx: IViewContext) {
    super(ctx, 'profile');
    const profile = profileOf(ctx.report);
    const baseline = baselineOf(ctx.report);
    const summary = h('div', { class: 'jp-DynamoExplorer-profileSummary' });
    this.body.appendChild(summary);
    if (profile) {
      summary.appendChild(this._split(profile));
      const device = this._device(profile);
      if (device) {
        summary.appendChild(device);
      }
    }
    if (baseline) {
      summary.appendChild(this._baseline(baseline));
    }
    if (!profile) {
      summary.appendChild(
        h('div', { class: 'jp-DynamoExplorer-empty', data: { hint: 'profile' }, text: noProfileText(ctx.report) })
      );
    } else {
      this.body.appendChild(
        h(
          'div',
          { class: 'jp-DynamoExplorer-profileGrid' },
          this._graphs(profile),
          this._eager(profile),
          this._coverage(profile),
          this._entries(profile),
          this._backward(profile)
        )
      );
    }
    const methods = [
      profile ? h('p', { data: { method: 'profile' }, text: `--profile: ${profile.method}` }) : null,
      baseline ? h('p', { data: { method: 'eager_baseline' }, text: `--compare-eager: ${baseline.method}` }) : null
    ];
    if (profile || baseline) {
      this.body.appendChild(
        h(
          'details',
          { class: 'jp-DynamoExplorer-profileMethod', data: { section: 'method' } },
          h('summary', { text: 'How this was measured' }),
          ...methods
        )
      );
    }
  }

  /** Mark the rows of the frame shown now. */
  protected render(frame: Frame): void {
    this._markCurrent(frame.compile_id);
  }

  /** No frame is shown: no row is marked. */
  protected renderNoFrame(): void {
    this._markCurrent(null);
  }

  /** Mark (`jp-mod-current`) the table rows of one frame (null: none). */
  private _markCurrent(compileId: string | null): void {
    for (const row of this._framed) {
      row.classList.toggle('jp-mod-current', compileId !== null && row.dataset.compileId === compileId);
    }
  }

  /** The run split: one stacked bar and its legend (ms and % of each part). */
  private _split(profile: Profile): HTMLElement {
    const parts = runSplit(profile);
    const bar = h('div', {
      class: 'jp-DynamoExplorer-splitBar',
      attrs: { role: 'img', 'aria-label': `run split: ${splitText(profile)}` }
    });
    const legend = h('ul', { class: 'jp-DynamoExplorer-splitLegend' });
    for (const part of parts) {
      const title = `${part.key}: ${formatMs(part.ms)}, ${formatPct(part.share)} of the run; ${part.detail}`;
      const seg = h('div', {
        class: `jp-DynamoExplorer-splitPart jp-mod-${part.key}`,
        title,
        data: { part: part.key, ms: String(part.ms), share: String(part.share) }
      });
      seg.style.width = `${(part.share * 100).toFixed(3)}%`;
      bar.appendChild(seg);
      const lookups =
        part.key === 'eager' && profile.cache_lookups > 0
          ? h('span', {
              class: 'jp-DynamoExplorer-muted',
              data: { lookups: String(profile.cache_lookups) },
              text: ` incl. ${profile.cache_lookups} cache lookup${profile.cache_lookups === 1 ? '' : 's'}, ${formatMs(profile.cache_lookup_ms)}`
            })
          : null;
      legend.appendChild(
        h(
          'li',
          { data: { part: part.key }, title },
          h('span', { class: `jp-DynamoExplorer-splitSwatch jp-mod-${part.key}` }),
          h('strong', { text: part.key }),
          ` ${formatMs(part.ms)} `,
          h('span', { class: 'jp-DynamoExplorer-splitPct', text: `(${formatPct(part.share)})` }),
          lookups
        )
      );
    }
    return h(
      'div',
      { class: 'jp-DynamoExplorer-split', data: { section: 'split' } },
      h('div', {
        class: 'jp-DynamoExplorer-splitHead',
        text: `The profiled run: ${formatMs(profile.wall_ms)}${profile.device === 'cuda' ? ' (with CUDA kernel times)' : ''}`
      }),
      bar,
      legend
    );
  }

  /** On a GPU: the device time no graph's own run launched (eager kernels, compile work's), with the eager kernels. */
  private _device(profile: Profile): HTMLElement | null {
    const parts = deviceParts(profile);
    if (!parts) {
      return null;
    }
    return h(
      'div',
      {
        class: 'jp-DynamoExplorer-profileDevice',
        data: { section: 'device' },
        title: 'each kernel is charged to the call that launched it (the profiler’s link from a kernel to its launch)'
      },
      h('span', { text: 'Device time outside the graphs’ own runs: ' }),
      h('span', { data: { part: 'eager' }, text: parts.eager }),
      ' · ',
      h('span', { data: { part: 'compile' }, text: parts.compile }),
      parts.kernels.length > 0
        ? h(
            'details',
            { class: 'jp-DynamoExplorer-kernelList' },
            h('summary', { text: 'eager kernels' }),
            h(
              'ol',
              {},
              ...parts.kernels.map(k =>
                h('li', {
                  title: k.name,
                  text: `${k.name} · ${k.calls}× · ${formatMs(k.device_ms)}`,
                  data: { kernel: k.name }
                })
              )
            )
          )
        : null
    );
  }

  /** The comparison with eager: the speedup, when the compile pays back, and each function's speedup. */
  private _baseline(baseline: EagerBaseline): HTMLElement {
    const runs = paybackRuns(baseline);
    const verdict = runs === null ? 'not-faster' : 'faster';
    const el = h(
      'div',
      { class: 'jp-DynamoExplorer-speedup', data: { section: 'speedup', verdict } },
      h('div', { class: 'jp-DynamoExplorer-speedupLine', text: speedupSentence(baseline) }),
      h('div', {
        class: 'jp-DynamoExplorer-payback',
        data: { runs: runs === null ? '' : String(runs) },
        text: paybackSentence(baseline)
      })
    );
    const rows = functionRows(baseline, this.ctx.index);
    if (rows.length > 0) {
      el.appendChild(
        this._table('functions', 'Speedup per compiled function', rows, [
          {
            label: 'function',
            wrap: true,
            sort: r => r.fn.name,
            cell: r =>
              h(
                'span',
                {},
                button(`${r.fn.name}`, () => void this.ctx.jumpToLine(null, r.fn.line), {
                  class: 'jp-DynamoExplorer-link',
                  title: `line ${r.fn.line} of the cell`,
                  data: { jump: String(r.fn.line) }
                }),
                ...r.frames.map(f => this._frameLink(f.compile_id))
              )
          },
          { label: 'calls', numeric: true, sort: r => r.fn.calls, cell: r => String(r.fn.calls) },
          {
            label: 'eager',
            title: 'its calls in the plain run',
            numeric: true,
            sort: r => r.fn.eager_ms,
            cell: r => formatMs(r.fn.eager_ms)
          },
          {
            label: 'compiled',
            title: 'its calls in the compiled run, compile time excluded',
            numeric: true,
            sort: r => r.fn.compiled_ms,
            cell: r => formatMs(r.fn.compiled_ms)
          },
          {
            label: 'speedup',
            title: 'eager / compiled',
            numeric: true,
            sort: r => r.fn.speedup ?? 0,
            cell: r => formatSpeedup(r.fn.speedup)
          }
        ])
      );
    }
    return el;
  }

  /** Graphs ranked by total time; a row opens its graph in the FX pane. */
  private _graphs(profile: Profile): HTMLElement {
    const rows = rankGraphs(profile, this.ctx.index);
    const gpu = rows.some(r => r.graph.device_ms !== null || r.kernels.length > 0);
    const split = rows.some(r => firstCallText(r.graph) !== null);
    const columns: Array<IColumn<IGraphRow>> = [
      { label: '#', numeric: true, sort: r => r.rank, cell: r => String(r.rank) },
      {
        label: 'graph',
        title: 'compile id (the cache entry) and Dynamo graph id: opens the graph in the FX pane',
        sort: r => r.graph.graph_id ?? -1,
        cell: r =>
          h(
            'span',
            {},
            this._frameLink(r.graph.compile_id),
            r.shown
              ? button(`graph ${r.graph.graph_id}`, () => void this.ctx.showGraph(r.graph.graph_id!), {
                  class: 'jp-DynamoExplorer-link',
                  title: 'Open this graph in the FX pane',
                  data: { graphId: String(r.graph.graph_id) }
                })
              : h('span', { class: 'jp-DynamoExplorer-muted', text: ' (no graph in the report)' })
          )
      },
      { label: 'calls', numeric: true, sort: r => r.graph.calls, cell: r => String(r.graph.calls) },
      {
        label: 'total',
        title: 'host time inside the compiled graph, summed over its calls',
        numeric: true,
        sort: r => r.graph.total_ms,
        cell: r => formatMs(r.graph.total_ms)
      },
      { label: 'mean', numeric: true, sort: r => r.graph.mean_ms, cell: r => formatMs(r.graph.mean_ms) },
      {
        label: '% compiled',
        title: 'of the time inside compiled graphs',
        numeric: true,
        sort: r => r.share,
        cell: r => formatPct(r.share)
      },
      {
        label: 'ops/call',
        title: 'captured ops per call: the graph’s nodes that make a tensor (the torch calls one call replaces)',
        numeric: true,
        sort: r => r.graph.ops,
        cell: r => String(r.graph.ops)
      }
    ];
    if (split) {
      columns.push(
        {
          label: 'first call',
          title:
            'host time of its first call, which holds its lazy compile, loading its code and inductor’s autotuning',
          numeric: true,
          sort: r => r.graph.first_call?.host_ms ?? -1,
          cell: r => this._firstCall(r)
        },
        {
          label: 'then',
          title: 'the calls after the first (the steady state): how many, and their mean host time',
          numeric: true,
          sort: r => {
            const s = r.graph.steady;
            return s && s.calls > 0 ? (s.host_ms - s.compile_ms) / s.calls : -1;
          },
          cell: r => this._steady(r)
        }
      );
    }
    if (gpu) {
      columns.push(
        {
          label: 'device',
          title: 'CUDA time of the kernels its calls launched (charged by launch; its autotuning’s not included)',
          numeric: true,
          sort: r => r.graph.device_ms ?? -1,
          cell: r => (r.graph.device_ms === null ? '–' : formatMs(r.graph.device_ms))
        },
        { label: 'kernels', wrap: true, cell: r => this._kernels(r) }
      );
    }
    const table = this._table('graphs', 'Graphs by time', rows, columns, r => ({
      compileId: r.graph.compile_id,
      graphId: r.graph.graph_id === null ? '' : String(r.graph.graph_id),
      rank: String(r.rank),
      open: r.shown ? () => void this.ctx.showGraph(r.graph.graph_id!) : undefined
    }));
    if (rows.length === 0) {
      table.appendChild(h('div', { class: 'jp-DynamoExplorer-empty', text: 'No compiled graph ran.' }));
    }
    return table;
  }

  /** A graph's first call: its host time, and how much of it was compile work (the tooltip says all). */
  private _firstCall(row: IGraphRow): Child {
    const first = row.graph.first_call;
    const text = firstCallText(row.graph);
    if (!first || text === null) {
      return '–';
    }
    return h(
      'span',
      { title: `first call: ${text}`, data: { firstCall: String(first.host_ms), compileMs: String(first.compile_ms) } },
      formatMs(first.host_ms),
      first.compile_ms > 0
        ? h('span', { class: 'jp-DynamoExplorer-muted', text: ` (${formatMs(first.compile_ms)} compile)` })
        : null
    );
  }

  /** The calls after a graph's first: `4× 3.10 ms` (the mean, compile work excluded), or `–`. */
  private _steady(row: IGraphRow): Child {
    const steady = row.graph.steady;
    const text = steadyText(row.graph);
    if (!steady || text === null) {
      return '–';
    }
    const mean = (steady.host_ms - steady.compile_ms) / steady.calls;
    return h(
      'span',
      { title: `then ${text}`, data: { steady: String(steady.calls) } },
      `${steady.calls}× ${formatMs(mean)}`
    );
  }

  /** A graph's device kernels (a GPU), folded. */
  private _kernels(row: IGraphRow): Child {
    if (row.kernels.length === 0) {
      return '–';
    }
    return h(
      'details',
      { class: 'jp-DynamoExplorer-kernelList' },
      h('summary', { text: `${row.kernels.length} kernel${row.kernels.length === 1 ? '' : 's'}` }),
      h(
        'ol',
        {},
        ...row.kernels.map(k =>
          h('li', {
            title: k.name,
            text: `${k.name} · ${k.calls}× · ${formatMs(k.device_ms)}`,
            data: { kernel: k.name }
          })
        )
      )
    );
  }

  /** Eager time by cause, the most first; a graph break's row shows its line. */
  private _eager(profile: Profile): HTMLElement {
    const rows = eagerRows(profile, this.ctx.index);
    const section = this._table(
      'eager',
      'Eager time by cause',
      rows,
      [
        { label: '#', numeric: true, sort: r => r.rank, cell: r => String(r.rank) },
        {
          label: 'cause',
          sort: r => r.gap.cause,
          cell: r => h('span', { title: CAUSE_TEXT[r.gap.cause] ?? r.gap.cause, text: r.gap.cause })
        },
        { label: 'what', wrap: true, sort: r => r.what, cell: r => this._eagerWhat(r) },
        {
          label: 'calls',
          title: 'how many times it ran',
          numeric: true,
          sort: r => r.gap.calls,
          cell: r => String(r.gap.calls)
        },
        { label: 'time', numeric: true, sort: r => r.gap.ms, cell: r => formatMs(r.gap.ms) },
        {
          label: '% eager',
          title: 'of the eager time',
          numeric: true,
          sort: r => r.share,
          cell: r => formatPct(r.share)
        },
        {
          label: 'ops',
          title: 'top-level ATen ops it ran eagerly',
          numeric: true,
          sort: r => r.gap.ops,
          cell: r => String(r.gap.ops)
        }
      ],
      r => ({ compileId: r.gap.compile_id ?? '', cause: r.gap.cause, rank: String(r.rank) })
    );
    if (rows.length === 0) {
      section.appendChild(h('div', { class: 'jp-DynamoExplorer-empty', text: 'No eager time was attributed.' }));
    }
    return section;
  }

  /** The 'what' cell of an eager row: a break with its line (a link), a frame (a link), or the cause in words. */
  private _eagerWhat(row: IEagerRow): Child {
    const { frame, gb } = row;
    if (row.gap.cause === 'graph_break' && frame) {
      const jump = (): void => {
        if (row.line !== null) {
          void this.ctx.jumpToLine(frame, row.line);
        } else {
          void this.ctx.selectFrame(frame.compile_id);
        }
      };
      return h(
        'span',
        { title: gb?.reason ?? CAUSE_TEXT.graph_break },
        h('span', { class: 'jp-DynamoExplorer-profileBreak', text: row.what }),
        button(row.where ?? `[${frame.compile_id}]`, jump, {
          class: 'jp-DynamoExplorer-link',
          title: 'Show this graph break in its frame’s source',
          data: { jump: row.line === null ? '' : String(row.line), breakIndex: String(row.gap.break_index ?? '') }
        }),
        this._frameLink(frame.compile_id)
      );
    }
    if (frame) {
      return h('span', {}, this._frameLink(frame.compile_id), ` ${row.what}`);
    }
    return h('span', { title: CAUSE_TEXT[row.gap.cause] ?? '', text: row.what });
  }

  /** Captured-op coverage, TorchDynamo Update 5's columns: the cell, then each cache entry. */
  private _coverage(profile: Profile): HTMLElement {
    const rows = coverageRows(profile, this.ctx.index);
    const graphs = profile.coverage?.unique_graphs ?? 0;
    const section = this._table(
      'coverage',
      `Captured-op coverage (${graphs} graph${graphs === 1 ? '' : 's'} ran)`,
      rows,
      [
        {
          label: 'scope',
          cell: r => (r.frame ? h('span', {}, this._frameLink(r.frame.compile_id), ` ${frameLabel(r.frame)}`) : r.label)
        },
        {
          label: 'graph_calls',
          title: 'calls of compiled graphs',
          numeric: true,
          sort: r => r.graph_calls,
          cell: r => String(r.graph_calls)
        },
        {
          label: 'captured_ops',
          title: 'ops run inside compiled graphs: each call’s captured ops',
          numeric: true,
          sort: r => r.captured_ops,
          cell: r => String(r.captured_ops)
        },
        {
          label: 'total_ops',
          title: 'captured ops plus the top-level ATen ops that ran eagerly in the forward',
          numeric: true,
          sort: r => r.total_ops,
          cell: r => String(r.total_ops)
        },
        {
          label: 'pct_ops',
          title: 'captured_ops / total_ops',
          numeric: true,
          sort: r => r.pct_ops,
          cell: r => formatPct(r.pct_ops)
        },
        {
          label: 'pct_time',
          title: 'time in forward graphs / (that + the eager ops’ time)',
          numeric: true,
          sort: r => r.pct_time,
          cell: r => formatPct(r.pct_time)
        }
      ],
      r => ({ compileId: r.frame ? r.scope : '', scope: r.scope })
    );
    return section;
  }

  /** Cache entries: how often each was hit and where its time went. */
  private _entries(profile: Profile): HTMLElement {
    return this._table(
      'entries',
      'Cache entries',
      entryRows(profile, this.ctx.index),
      [
        {
          label: 'compile id',
          sort: r => r.entry.compile_id,
          cell: r =>
            h(
              'span',
              {},
              this._frameLink(r.entry.compile_id),
              r.frame ? h('span', { class: 'jp-DynamoExplorer-muted', text: ` ${frameLabel(r.frame)}` }) : null
            )
        },
        {
          label: 'hits',
          title: 'calls this cache entry served',
          numeric: true,
          sort: r => r.entry.hits,
          cell: r => String(r.entry.hits)
        },
        {
          label: 'total',
          title: 'inside its code, nested entries (resume functions) and compiles included',
          numeric: true,
          sort: r => r.entry.total_ms,
          cell: r => formatMs(r.entry.total_ms)
        },
        {
          label: 'self',
          title: 'total without nested entries and compiles',
          numeric: true,
          sort: r => r.entry.self_ms,
          cell: r => formatMs(r.entry.self_ms)
        },
        {
          label: 'graph',
          title: 'of self, inside its compiled graphs',
          numeric: true,
          sort: r => r.entry.graph_ms,
          cell: r => formatMs(r.entry.graph_ms)
        },
        {
          label: 'eager',
          title: 'of self, outside graphs',
          numeric: true,
          sort: r => r.entry.eager_ms,
          cell: r => formatMs(r.entry.eager_ms)
        },
        {
          label: 'eager ops',
          title: 'top-level ATen ops that ran eagerly',
          numeric: true,
          sort: r => r.entry.eager_ops,
          cell: r => String(r.entry.eager_ops)
        },
        {
          label: 'cache lookup',
          title: 'time in the cache lookups that chose this entry',
          numeric: true,
          sort: r => r.entry.cache_lookup_ms,
          cell: r => formatMs(r.entry.cache_lookup_ms)
        }
      ],
      r => ({ compileId: r.entry.compile_id })
    );
  }

  /** The backward split (compiled graphs vs autograd's eager nodes), or nothing when no backward ran. */
  private _backward(profile: Profile): HTMLElement | null {
    const parts = backwardParts(profile);
    if (!parts) {
      return null;
    }
    return h(
      'section',
      { class: 'jp-DynamoExplorer-profileSection', data: { section: 'backward' } },
      h('h3', { class: 'jp-DynamoExplorer-profileHeading', text: 'Backward' }),
      h(
        'ul',
        { class: 'jp-DynamoExplorer-backward' },
        h('li', { data: { part: 'compiled' }, text: parts.compiled }),
        h('li', { data: { part: 'eager' }, text: parts.eager })
      )
    );
  }

  /** A link that selects a frame. */
  private _frameLink(compileId: string): HTMLElement {
    if (!this.ctx.index.frames.has(compileId)) {
      return h('span', { class: 'jp-DynamoExplorer-chip', text: `[${compileId}]` });
    }
    return button(`[${compileId}]`, () => void this.ctx.selectFrame(compileId), {
      class: 'jp-DynamoExplorer-link jp-DynamoExplorer-chip',
      title: `Show frame [${compileId}]`,
      data: { frame: compileId }
    });
  }

  /**
   * A titled section holding a sortable table: a click (or Enter) on a sortable head sorts by it, again
   * reverses; `rowData` gives each row's data attributes (`compileId` marks the shown frame's rows) and
   * `open`, what a click elsewhere in the row does.
   */
  private _table<T>(
    name: string,
    heading: string,
    rows: readonly T[],
    columns: Array<IColumn<T>>,
    rowData: (row: T) => Record<string, string | (() => void) | undefined> = () => ({})
  ): HTMLElement {
    const tbody = h('tbody');
    const trs = new Map<T, HTMLElement>();
    for (const row of rows) {
      const data: Record<string, string> = {};
      let open: (() => void) | undefined;
      for (const [key, value] of Object.entries(rowData(row))) {
        if (typeof value === 'function') {
          open = value;
        } else if (value !== undefined) {
          data[key] = value;
        }
      }
      const tr = h(
        'tr',
        {
          data,
          class: open ? 'jp-mod-opens' : undefined,
          onclick: open
            ? event => {
                if (!(event.target as Element).closest('button, a, summary')) {
                  open!();
                }
              }
            : undefined
        },
        ...columns.map(c => h('td', { class: cellClass(c) }, c.cell(row)))
      );
      trs.set(row, tr);
      if (data.compileId) {
        this._framed.push(tr);
      }
      tbody.appendChild(tr);
    }
    const heads: HTMLElement[] = [];
    let sorted: { column: number; dir: SortDir } | null = null;
    const sortBy = (i: number): void => {
      const column = columns[i];
      const dir: SortDir =
        sorted?.column === i ? (sorted.dir === 'asc' ? 'desc' : 'asc') : column.numeric ? 'desc' : 'asc';
      sorted = { column: i, dir };
      for (const tr of sortRows(rows, column.sort!, dir).map(r => trs.get(r)!)) {
        tbody.appendChild(tr);
      }
      heads.forEach((th, j) =>
        th.setAttribute('aria-sort', j === i ? (dir === 'asc' ? 'ascending' : 'descending') : 'none')
      );
    };
    const headRow = h('tr');
    columns.forEach((column, i) => {
      const th = h('th', {
        class: column.numeric ? 'jp-mod-number' : undefined,
        title: column.title,
        attrs: { scope: 'col' }
      });
      if (column.sort) {
        th.setAttribute('aria-sort', 'none');
        th.appendChild(
          button(column.label, () => sortBy(i), {
            class: 'jp-DynamoExplorer-sortButton',
            title: `Sort by ${column.label}${column.title ? `: ${column.title}` : ''}`
          })
        );
      } else {
        th.textContent = column.label;
      }
      heads.push(th);
      headRow.appendChild(th);
    });
    return h(
      'section',
      { class: 'jp-DynamoExplorer-profileSection', data: { section: name } },
      h('h3', { class: 'jp-DynamoExplorer-profileHeading', text: heading }),
      rows.length > 0
        ? h(
            'table',
            { class: 'jp-DynamoExplorer-table jp-DynamoExplorer-profileTable' },
            h('thead', {}, headRow),
            tbody
          )
        : null
    );
  }
}
