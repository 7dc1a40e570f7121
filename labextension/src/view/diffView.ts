/**
 * The diff view: what changed between two runs (`application/vnd.dynamo-explorer.diff.v1+json`), drawn by every host
 * of the explorer (the JupyterLab renderer, the widget, the `dynamo-explorer diff --html` page).
 *
 * From the top: both sides (torch, Python, backend, mode, device, what each compiled) and each setting that
 * confounds the comparison; the verdict with the first difference first (a button: it opens that pair); then the
 * compiles of both sides aligned, a row a pair (only those that differ, or all), beside the pair opened: its
 * differences (what was added, removed and changed; a graph's unified diff), its costs, and both sides side by side:
 * the function's source with each side's graph breaks marked, its guards and its FX graph's lines, a line one side
 * lacks marked on the other.
 */
import { button, clear, formatSeconds, h, plural } from '../dom';
import type { CompileDiff, Difference, FramePair, FrameView } from '../diffSchema';
import { breakLine, firstDifferingPair, oneSided, pairIds, pairRows } from '../model/diffModel';

/** The most pair rows drawn at once (a 12,000-compile trace has 12,000 pairs); "show more" draws the next. */
export const ROWS_AT_ONCE = 500;

const SIDE_NAMES = ['A', 'B'] as const;

/** The settings of a side shown in the header, with their labels. */
const SETTINGS: Array<[keyof CompileDiff['sides'][number], string]> = [
  ['torch_version', 'torch'],
  ['python_version', 'Python'],
  ['backend', 'backend'],
  ['mode', 'mode'],
  ['dynamic', 'dynamic'],
  ['fullgraph', 'fullgraph'],
  ['device', 'device']
];

function shown(value: unknown): string {
  return value === null || value === undefined ? '–' : String(value);
}

/** One rendered diff. */
export class DiffView {
  private _selected = -1;
  private _onlyDiffering: boolean;
  private _limit = ROWS_AT_ONCE;
  private readonly _list: HTMLElement;
  private readonly _detail: HTMLElement;

  constructor(
    private readonly _root: HTMLElement,
    readonly diff: CompileDiff
  ) {
    this._onlyDiffering = !diff.same_story;
    this._list = h('div', {
      class: 'jp-DynamoExplorer-diffPairs',
      attrs: { role: 'listbox', 'aria-label': 'Pairs of compiles' }
    });
    this._detail = h('div', { class: 'jp-DynamoExplorer-diffDetail', data: { pane: 'diff-pair' } });
  }

  /** The pair opened (its index in `diff.frames`), -1 for none. */
  get selected(): number {
    return this._selected;
  }

  /** Draw the whole view; the pair with the first difference opens (the first pair when none differs). */
  start(): void {
    const root = this._root;
    root.dataset.view = 'diff';
    root.appendChild(
      h(
        'div',
        { class: 'jp-DynamoExplorer-diff' },
        this._header(),
        h('div', { class: 'jp-DynamoExplorer-diffBody' }, this._listShell(), this._detail)
      )
    );
    const first = firstDifferingPair(this.diff);
    this._drawList();
    this.select(first >= 0 ? first : this.diff.frames.length > 0 ? 0 : -1);
    root.dataset.status = 'ready';
  }

  /** Open pair `index` of `diff.frames`. */
  select(index: number): void {
    this._selected = index;
    for (const row of Array.from(this._list.querySelectorAll<HTMLElement>('[data-pair]'))) {
      const on = Number(row.dataset.pair) === index;
      row.classList.toggle('jp-mod-selected', on);
      row.setAttribute('aria-selected', String(on));
    }
    clear(this._detail);
    const pair = this.diff.frames[index];
    if (!pair) {
      this._detail.appendChild(h('div', { class: 'jp-DynamoExplorer-empty', text: 'Neither side compiled anything.' }));
      return;
    }
    this._detail.dataset.pairIndex = String(index);
    this._drawPair(pair);
  }

  /** Take the view down. */
  dispose(): void {
    clear(this._root);
  }

  private _header(): HTMLElement {
    const d = this.diff;
    const rows = d.sides.map((side, i) =>
      h(
        'tr',
        { data: { side: SIDE_NAMES[i] } },
        h('th', { text: SIDE_NAMES[i], attrs: { scope: 'row' } }),
        h('td', { class: 'jp-DynamoExplorer-diffSource', text: side.source, title: side.source }),
        ...SETTINGS.map(([key]) => h('td', { text: shown(side[key]) })),
        h('td', { text: String(side.frames) }),
        h('td', { text: String(side.graphs) }),
        h('td', { text: String(side.graph_breaks) }),
        h('td', { text: String(side.recompiles) }),
        h('td', { text: formatSeconds(side.compile_s) })
      )
    );
    const heads = [
      '',
      'side',
      ...SETTINGS.map(([, label]) => label),
      'frames',
      'graphs',
      'graph breaks',
      'recompiles',
      'compile'
    ];
    const verdict = d.same_story
      ? h(
          'div',
          { class: 'jp-DynamoExplorer-diffVerdict', data: { verdict: 'same' } },
          'The same compile story on both sides.'
        )
      : h(
          'div',
          { class: 'jp-DynamoExplorer-diffVerdict', data: { verdict: 'differs' } },
          h('span', { text: `${plural(d.differences, 'difference')} of the story; the first: ` }),
          button(d.first_difference ?? '', () => this.select(firstDifferingPair(d)), {
            class: 'jp-DynamoExplorer-firstDifference',
            title: 'Open the pair of compiles it is in'
          })
        );
    return h(
      'div',
      { class: 'jp-DynamoExplorer-diffHeader', data: { pane: 'diff-header' } },
      h('div', { class: 'jp-DynamoExplorer-diffTitle', text: 'What changed: B against A' }),
      h(
        'table',
        { class: 'jp-DynamoExplorer-table jp-DynamoExplorer-diffSides' },
        h('thead', {}, h('tr', {}, ...heads.map(t => h('th', { text: t, attrs: { scope: 'col' } })))),
        h('tbody', {}, ...rows)
      ),
      ...d.confounded.map(c =>
        h(
          'div',
          { class: 'jp-DynamoExplorer-diffConfounded', data: { setting: c.setting } },
          `confounded: ${c.setting} is ${shown(c.a)} in A and ${shown(c.b)} in B; what differs may come from it`
        )
      ),
      verdict
    );
  }

  private _listShell(): HTMLElement {
    const d = this.diff;
    const differing = d.frames.filter(p => p.differences.length > 0).length;
    const toggle = h('input', { attrs: { type: 'checkbox' } });
    toggle.checked = this._onlyDiffering;
    toggle.addEventListener('change', () => {
      this._onlyDiffering = toggle.checked;
      this._limit = ROWS_AT_ONCE;
      this._drawList();
    });
    return h(
      'div',
      { class: 'jp-DynamoExplorer-diffList', data: { pane: 'diff-pairs' } },
      h(
        'div',
        { class: 'jp-DynamoExplorer-diffListHead' },
        h('span', { text: `${plural(d.frames.length, 'pair')} of compiles, ${differing} differing` }),
        h('label', { class: 'jp-DynamoExplorer-diffOnly' }, toggle, ' only those that differ')
      ),
      this._list
    );
  }

  private _drawList(): void {
    clear(this._list);
    const rows = pairRows(this.diff, this._onlyDiffering);
    if (rows.length === 0) {
      this._list.appendChild(h('div', { class: 'jp-DynamoExplorer-empty', text: 'No pair of compiles differs.' }));
      return;
    }
    for (const { index, pair, differs } of rows.slice(0, this._limit)) {
      const said = differs
        ? pair.differences.map(x => x.kind).join(', ')
        : pair.costs.length > 0
          ? `same story (${pair.costs.map(x => x.kind).join(', ')})`
          : 'same';
      const row = button('', () => this.select(index), {
        class: `jp-DynamoExplorer-diffPair${differs ? ' jp-mod-differs' : ''}`,
        data: { pair: String(index) },
        attrs: { role: 'option', 'aria-selected': String(index === this._selected) },
        title: differs ? pair.differences.map(x => x.summary).join('\n') : 'The same story on both sides'
      });
      row.append(
        h('span', { class: 'jp-DynamoExplorer-diffIds', text: pairIds(pair) }),
        h('span', { class: 'jp-DynamoExplorer-diffFunction', text: `${pair.function} (${pair.filename})` }),
        h('span', { class: 'jp-DynamoExplorer-diffKinds', text: said })
      );
      row.classList.toggle('jp-mod-selected', index === this._selected);
      this._list.appendChild(row);
    }
    if (rows.length > this._limit) {
      this._list.appendChild(
        button(`show ${Math.min(ROWS_AT_ONCE, rows.length - this._limit)} more of ${rows.length - this._limit}`, () => {
          this._limit += ROWS_AT_ONCE;
          this._drawList();
        })
      );
    }
  }

  private _drawPair(pair: FramePair): void {
    const detail = this._detail;
    detail.appendChild(
      h(
        'div',
        { class: 'jp-DynamoExplorer-diffPairTitle' },
        h('strong', { text: pair.function }),
        ` (${pair.filename}) `,
        h('span', { class: 'jp-DynamoExplorer-diffIds', text: pairIds(pair) })
      )
    );
    if (pair.differences.length === 0) {
      detail.appendChild(
        h('div', {
          class: 'jp-DynamoExplorer-diffSame',
          text: 'The same story on both sides: breaks, recompiles, graphs, guards, symbols, status and kernels.'
        })
      );
    }
    for (const x of pair.differences) {
      detail.appendChild(differenceItem(x, false));
    }
    if (pair.costs.length > 0) {
      detail.appendChild(h('div', { class: 'jp-DynamoExplorer-diffCostsHead', text: 'Costs (not the story)' }));
      for (const x of pair.costs) {
        detail.appendChild(differenceItem(x, true));
      }
    }
    if (pair.view) {
      detail.appendChild(sideBySide(pair.view.a ?? null, pair.view.b ?? null));
    } else if (pair.differences.length > 0) {
      detail.appendChild(
        h('div', {
          class: 'jp-DynamoExplorer-empty',
          text: `No side-by-side view of this pair: the diff keeps one for the first 100 pairs that differ (${plural(this.diff.views_left_out ?? 0, 'pair')} left out).`
        })
      );
    }
  }
}

/** One difference: its kind, its line, what was added, removed and changed, and a graph's unified diff. */
function differenceItem(x: Difference, cost: boolean): HTMLElement {
  const rows = (lines: string[], mark: string, cls: string): HTMLElement[] =>
    lines.map(line => h('li', { class: cls, text: `${mark} ${line}` }));
  const list = [
    ...rows(x.added, '+', 'jp-mod-added'),
    ...rows(x.removed, '−', 'jp-mod-removed'),
    ...rows(x.changed, '~', 'jp-mod-changed')
  ];
  return h(
    'div',
    { class: `jp-DynamoExplorer-diffItem${cost ? ' jp-mod-cost' : ''}`, data: { kind: x.kind } },
    h('span', { class: 'jp-DynamoExplorer-badge', text: x.kind }),
    ' ',
    h('span', { class: 'jp-DynamoExplorer-diffSummary', text: x.summary }),
    list.length > 0 ? h('ul', { class: 'jp-DynamoExplorer-diffRows' }, ...list) : null,
    x.detail ? unified(x.detail) : null
  );
}

/** A unified diff, its lines coloured by their first character. */
function unified(text: string): HTMLElement {
  const lines = text.split('\n').map(line => {
    const cls =
      line.startsWith('+') && !line.startsWith('+++')
        ? 'jp-mod-added'
        : line.startsWith('-') && !line.startsWith('---')
          ? 'jp-mod-removed'
          : line.startsWith('@@')
            ? 'jp-mod-hunk'
            : '';
    return h('div', { class: cls, text: line || ' ' });
  });
  return h('div', { class: 'jp-DynamoExplorer-code jp-DynamoExplorer-diffUnified' }, ...lines);
}

/** Both sides' source, guards and graph, a column a side. */
function sideBySide(a: FrameView | null, b: FrameView | null): HTMLElement {
  const sides = [a, b];
  const head = (i: number): HTMLElement => {
    const side = sides[i];
    return h('div', {
      class: 'jp-DynamoExplorer-diffColumnHead',
      text: side ? `${SIDE_NAMES[i]} [${side.compile_id}]` : `${SIDE_NAMES[i]}: not compiled`
    });
  };
  const section = (
    name: string,
    title: string,
    draw: (side: FrameView, other: FrameView | null, i: number) => HTMLElement
  ): HTMLElement =>
    h(
      'div',
      { class: 'jp-DynamoExplorer-diffSection', data: { section: name } },
      h('div', { class: 'jp-DynamoExplorer-diffSectionTitle', text: title }),
      h(
        'div',
        { class: 'jp-DynamoExplorer-diffColumns' },
        ...sides.map((side, i) =>
          h(
            'div',
            { class: 'jp-DynamoExplorer-diffColumn', data: { side: SIDE_NAMES[i] } },
            head(i),
            side
              ? draw(side, sides[1 - i], i)
              : h('div', { class: 'jp-DynamoExplorer-empty', text: 'This side did not compile it.' })
          )
        )
      )
    );
  return h(
    'div',
    { class: 'jp-DynamoExplorer-diffSides2' },
    section('source', 'Source, with each side’s graph breaks', side => sourceColumn(side)),
    section('guards', 'Guards', (side, other, i) =>
      lineColumn(side.guards, other?.guards ?? [], i, side.guards_left_out, 'guard')
    ),
    section('graph', 'FX graph (nodes numbered in order)', (side, other, i) =>
      lineColumn(side.graph, other?.graph ?? [], i, side.graph_left_out, 'line')
    )
  );
}

/** A graph break's type, and its reason where that says more. */
function breakWhy(b: FrameView['breaks'][number]): string {
  return `${b.gb_type}${b.reason && b.reason !== b.gb_type ? `: ${b.reason}` : ''}`;
}

/** A side's function source, each line where it broke marked with the break's type and reason. */
function sourceColumn(side: FrameView): HTMLElement {
  const src = side.source;
  const marks = new Map<number, string[]>();
  let elsewhere = 0;
  for (const b of side.breaks) {
    const line = src ? breakLine(b, src.filename) : null;
    if (line === null || !src || line < src.first_line || line >= src.first_line + src.lines.length) {
      elsewhere += 1;
    } else {
      marks.set(line, [...(marks.get(line) ?? []), breakWhy(b)]);
    }
  }
  const out = h('div', { class: 'jp-DynamoExplorer-code jp-DynamoExplorer-diffLines' });
  if (src) {
    src.lines.forEach((text, i) => {
      const line = src.first_line + i;
      const why = marks.get(line);
      out.appendChild(
        h(
          'div',
          {
            class: why ? 'jp-DynamoExplorer-diffLine jp-mod-break' : 'jp-DynamoExplorer-diffLine',
            data: { line: String(line) },
            title: why?.join('\n')
          },
          h('span', { class: 'jp-DynamoExplorer-diffLineNo', text: String(line) }),
          h('span', { class: 'jp-DynamoExplorer-diffMark', text: why ? '●' : ' ' }),
          h('span', { text: text || ' ' })
        )
      );
    });
  } else {
    out.appendChild(
      h('div', { class: 'jp-DynamoExplorer-empty', text: 'The report holds no source of this function.' })
    );
  }
  const breaks = h(
    'ul',
    { class: 'jp-DynamoExplorer-diffBreaks' },
    ...side.breaks.map(b =>
      h('li', {
        text: `${b.filename ?? '?'}${b.line !== null ? `:${b.line}` : ''}: ${breakWhy(b)}`
      })
    )
  );
  return h(
    'div',
    {},
    out,
    side.breaks.length === 0
      ? h('div', { class: 'jp-DynamoExplorer-diffNote', text: 'No graph break.' })
      : h('div', {
          class: 'jp-DynamoExplorer-diffNote',
          text: `${plural(side.breaks.length, 'graph break')}${elsewhere ? `, ${elsewhere} outside this source` : ''}:`
        }),
    side.breaks.length > 0 ? breaks : null
  );
}

/** A side's lines, each one the other side lacks marked (added on B, removed on A). */
function lineColumn(mine: string[], other: string[], side: number, leftOut: number, word: string): HTMLElement {
  const only = oneSided(mine, other);
  const cls = side === 0 ? 'jp-mod-removed' : 'jp-mod-added';
  const out = h('div', { class: 'jp-DynamoExplorer-code jp-DynamoExplorer-diffLines' });
  mine.forEach((text, i) => {
    out.appendChild(
      h('div', {
        class: only.has(i) ? `jp-DynamoExplorer-diffLine ${cls}` : 'jp-DynamoExplorer-diffLine',
        text: text || ' '
      })
    );
  });
  const notes = [
    only.size > 0 ? `${plural(only.size, word)} only on this side` : `no ${word} only on this side`,
    leftOut > 0 ? `${leftOut} more not kept` : ''
  ].filter(s => s);
  return h(
    'div',
    {},
    h('div', { class: 'jp-DynamoExplorer-diffNote', text: notes.join('; ') }),
    mine.length > 0 ? out : null
  );
}
