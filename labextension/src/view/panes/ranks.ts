/**
 * The header's ranks view (`report.ranks`: a multi-rank trace, or `dynamo-explorer run --nproc`): a ranks ×
 * compile-ids table (each cell the compile's status and cache decisions, `missing` where a rank did not compile that
 * id), each rank's compile seconds with the straggler marked, and the first divergence with its cause (the guard
 * that failed on the rank that recompiled, the collective where they part, or the diff of the two ranks' graphs), and
 * each compile's collectives rank beside rank in issue order, a position where a rank issues another one marked;
 * every rank's compiles on one time axis (a lane a rank, a bar a compile, the straggler's lane marked). The rest of
 * the report is `shown_rank`'s; another rank's name opens its report (its page of an --html export, or in place
 * when the kernel that opened the trace keeps it).
 */
import type { IViewContext } from '../context';
import { button, h } from '../../dom';
import { loadReport } from '../../model/encoding';
import { loadKey } from '../../model/partsModel';
import { partLoader, reportRedraw } from '../reportHub';
import type { Collective, RankCompile, RankSummary, RanksView } from '../../schema';

/** `all_reduce(float32[4], 'sum', '0')`, as compiler/collectives.py's `describe`; `nothing` past a rank's last. */
export function describeCollective(c: Collective | undefined): string {
  if (!c) {
    return 'nothing';
  }
  const shape = `${c.dtype ?? '?'}${c.shape ? `[${c.shape.join(', ')}]` : ''}`;
  return `${c.op}(${[shape, c.args].filter(s => s).join(', ')})`;
}

function signature(c: Collective | undefined): string {
  return c ? JSON.stringify([c.op, c.shape, c.dtype, c.args]) : '';
}

/** One table per compile id that issues collectives: positions × ranks, a cell unlike the lowest rank's marked. */
function collectivesView(view: RanksView, columns: string[]): HTMLElement | null {
  const tables = columns.flatMap(cid => {
    const seqs = view.ranks.map(r => r.compiles.find(c => c.compile_id === cid)?.collectives ?? []);
    const longest = Math.max(0, ...seqs.map(s => s.length));
    if (longest === 0) {
      return [];
    }
    const rows = Array.from({ length: longest }, (_, i) => {
      const ref = signature(seqs[0][i]);
      return h(
        'tr',
        {},
        h('td', { text: `#${i + 1}` }),
        ...seqs.map(s =>
          h('td', {
            class: signature(s[i]) === ref ? '' : 'jp-mod-diverges',
            title: s[i] ? `${s[i].graph} graph, node ${s[i].node}` : undefined,
            text: describeCollective(s[i])
          })
        )
      );
    });
    const differs = rows.some(r => r.querySelector('.jp-mod-diverges') !== null);
    const open = differs || view.divergence?.compile_id === cid;
    return [
      h(
        'details',
        { data: { collectives: cid }, attrs: open ? { open: '' } : undefined },
        h('summary', {
          text: `[${cid}]: ${longest} collective${longest === 1 ? '' : 's'}${differs ? ', the ranks issue different ones' : ', alike on every rank'}`
        }),
        h(
          'table',
          { class: 'jp-DynamoExplorer-ranksTable' },
          h('tr', {}, h('th', { text: '' }), ...view.ranks.map(r => h('th', { text: `rank ${r.rank}` }))),
          ...rows
        )
      )
    ];
  });
  return tables.length
    ? h(
        'div',
        { class: 'jp-DynamoExplorer-collectives' },
        h('strong', { text: 'Collectives, in issue order (ranks pair them by position)' }),
        ...tables
      )
    : null;
}

/**
 * Every rank's compiles on one time axis: a lane a rank (the straggler's marked), a bar a compile from its
 * `start_s` for its `compile_s` (at least a sliver, so a short compile stays visible); null when no compile has both.
 */
export function timelineView(view: RanksView): HTMLElement | null {
  const timed = (c: RankCompile): boolean => typeof c.start_s === 'number' && typeof c.compile_s === 'number';
  const bars = view.ranks.flatMap(r => r.compiles.filter(timed));
  if (bars.length === 0) {
    return null;
  }
  const end = Math.max(...bars.map(c => c.start_s! + c.compile_s!));
  const span = end > 0 ? end : 1;
  const pct = (s: number): string => `${((100 * s) / span).toFixed(3)}%`;
  const lanes = view.ranks.map(r =>
    h(
      'div',
      { class: `jp-DynamoExplorer-rankLane${r.straggler ? ' jp-mod-straggler' : ''}`, data: { rank: String(r.rank) } },
      h('span', {
        class: 'jp-DynamoExplorer-rankLaneLabel',
        text: `rank ${r.rank}${r.straggler ? ' (straggler)' : ''}`
      }),
      h(
        'span',
        { class: 'jp-DynamoExplorer-rankLaneTrack' },
        ...r.compiles.filter(timed).map(c => {
          const bar = h('span', {
            class: `jp-DynamoExplorer-rankLaneBar jp-mod-${c.status}`,
            data: { compileId: c.compile_id },
            title: `rank ${r.rank} [${c.compile_id}] ${c.status}: from ${c.start_s!.toFixed(2)} s for ${c.compile_s!.toFixed(3)} s`
          });
          bar.style.left = pct(c.start_s!);
          bar.style.width = pct(c.compile_s!);
          return bar;
        })
      )
    )
  );
  return h(
    'div',
    { class: 'jp-DynamoExplorer-rankTimeline', data: { end: end.toFixed(3) } },
    ...lanes,
    h('div', {
      class: 'jp-DynamoExplorer-muted',
      text: `compile time on one axis: 0 to ${end.toFixed(2)} s after the job's first compile (each rank's clock)`
    })
  );
}

/** A page of an --html export, in the same folder. */
const PAGE = /^[\w.-]+\.html?$/;

/**
 * A rank's name in the table: `rank 1 (shown)` for the rank this report is; another rank's is a link to its page
 * when the report is one page of an --html export of several ranks (`page`, compiler/ranks.py `rank_pages`), or a
 * button that shows that rank's report in place when a kernel keeps it (`part`: %dynamo_open, open_trace).
 */
function rankLabel(ctx: IViewContext, r: RankSummary, shown: number): HTMLElement {
  if (r.rank === shown) {
    return h('span', { text: `rank ${r.rank} (shown)` });
  }
  // only a page beside this one (report.rank1.html): a report is data, and a link it names must not be a script
  if (r.page && PAGE.test(r.page)) {
    return h('a', { text: `rank ${r.rank}`, title: `rank ${r.rank}'s full report`, attrs: { href: r.page } });
  }
  if (r.part) {
    return showRank(ctx, r.rank, r.part);
  }
  return h('span', { text: `rank ${r.rank}` });
}

/**
 * The button that shows rank `rank`'s report (kept by the kernel under `key`) in place of this one, through the
 * view's host; without a kernel to ask (a saved notebook, a restarted kernel) the click says how to open it.
 */
function showRank(ctx: IViewContext, rank: number, key: string): HTMLElement {
  const status = h('span', { class: 'jp-DynamoExplorer-partStatus' });
  const cell = h('span', { class: 'jp-DynamoExplorer-rankShow', data: { state: 'kept' } });
  const run = async (): Promise<void> => {
    const loader = partLoader(ctx);
    const redraw = reportRedraw(ctx);
    if (!loader || !redraw) {
      cell.dataset.state = 'no-kernel';
      status.textContent = ` No kernel to ask here: %dynamo_open PATH --rank ${rank} shows it.`;
      return;
    }
    show.disabled = true;
    cell.dataset.state = 'loading';
    status.textContent = ' Loading…';
    try {
      const check = await loadReport(await loadKey(loader, key));
      if (!check.ok) {
        throw new Error(check.message);
      }
      await redraw(check.report);
    } catch (error) {
      show.disabled = false;
      cell.dataset.state = 'error';
      status.textContent = ` Not shown: ${(error as Error).message}`;
    }
  };
  const show = button(`rank ${rank}`, () => void run(), {
    class: 'jp-DynamoExplorer-link',
    title: `show rank ${rank}'s report here (the kernel that opened the trace keeps every rank's)`
  });
  cell.append(show, status);
  return cell;
}

/** The compile ids of every rank, in first-seen order (rank by rank). */
export function rankColumns(view: RanksView): string[] {
  const order: string[] = [];
  for (const r of view.ranks) {
    for (const c of r.compiles) {
      if (!order.includes(c.compile_id)) {
        order.push(c.compile_id);
      }
    }
  }
  return order;
}

export function ranksView(ctx: IViewContext): HTMLElement | null {
  const view = ctx.report.ranks;
  if (!view) {
    return null;
  }
  const div = view.divergence;
  const odd = new Set(div?.ranks ?? []);
  const columns = rankColumns(view);
  const rows = view.ranks.map(r => {
    const byId = new Map(r.compiles.map(c => [c.compile_id, c]));
    return h(
      'tr',
      { data: { rank: String(r.rank) } },
      h('td', {}, rankLabel(ctx, r, view.shown_rank)),
      h('td', { text: `${r.compile_s.toFixed(2)} s${r.straggler ? ' (straggler)' : ''}`, title: r.source }),
      ...columns.map(cid => {
        const c = byId.get(cid);
        const diverges = div?.compile_id === cid && odd.has(r.rank);
        const cls = `${c ? `jp-mod-${c.status}` : 'jp-mod-missing'}${diverges ? ' jp-mod-diverges' : ''}`;
        return h('td', {
          class: cls,
          data: { compileId: cid },
          title: c
            ? `graph ${c.graph ?? 'none'}${c.compile_s !== null ? `, ${c.compile_s.toFixed(3)} s` : ''}`
            : undefined,
          text: c ? `${c.status}${c.cache ? ` · ${c.cache}` : ''}` : 'missing'
        });
      })
    );
  });
  return h(
    'div',
    { class: 'jp-DynamoExplorer-ranks', data: { ranks: String(view.world_size) } },
    div
      ? h(
          'div',
          { class: 'jp-DynamoExplorer-banner jp-mod-warning', data: { banner: 'divergence' } },
          h('strong', { text: `Ranks diverge (${div.kind}): ` }),
          h('span', { text: div.summary }),
          div.detail ? h('pre', { class: 'jp-DynamoExplorer-divergenceDetail', text: div.detail }) : null
        )
      : h('div', {
          class: 'jp-DynamoExplorer-banner jp-mod-info',
          data: { banner: 'divergence' },
          text: 'Every rank compiled alike.'
        }),
    h(
      'table',
      { class: 'jp-DynamoExplorer-ranksTable' },
      h(
        'tr',
        {},
        h('th', { text: 'rank' }),
        h('th', { text: 'compile' }),
        ...columns.map(cid => h('th', { text: `[${cid}]` }))
      ),
      ...rows
    ),
    timelineView(view),
    collectivesView(view, columns)
  );
}
