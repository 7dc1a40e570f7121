/**
 * The tables of the profile pane after the graphs: eager time by cause (a graph break's row links its line),
 * captured-op coverage as in TorchDynamo Update 5, the cache entries (hits and where their time went), and the
 * backward split.
 */
import { button, h, type Child } from '../../dom';
import {
  backwardParts,
  CAUSE_TEXT,
  coverageRows,
  eagerRows,
  entryRows,
  formatMs,
  formatPct,
  frameLabel,
  type IEagerRow
} from '../../model/profileModel';
import type { Profile } from '../../schema';
import { frameLink, sortableTable, type IProfileTables } from './profileTable';

/** Eager time by cause, the most first; a graph break's row shows its line. */
export function eagerSection(t: IProfileTables, profile: Profile): HTMLElement {
  const rows = eagerRows(profile, t.ctx.index);
  const section = sortableTable(
    t,
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
      { label: 'what', wrap: true, sort: r => r.what, cell: r => eagerWhat(t, r) },
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
function eagerWhat(t: IProfileTables, row: IEagerRow): Child {
  const { frame, gb } = row;
  if (row.gap.cause === 'graph_break' && frame) {
    const jump = (): void => {
      if (row.line !== null) {
        void t.ctx.jumpToLine(frame, row.line);
      } else {
        void t.ctx.selectFrame(frame.compile_id);
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
      frameLink(t.ctx, frame.compile_id)
    );
  }
  if (frame) {
    return h('span', {}, frameLink(t.ctx, frame.compile_id), ` ${row.what}`);
  }
  return h('span', { title: CAUSE_TEXT[row.gap.cause] ?? '', text: row.what });
}

/** Captured-op coverage, TorchDynamo Update 5's columns: the cell, then each cache entry. */
export function coverageSection(t: IProfileTables, profile: Profile): HTMLElement {
  const rows = coverageRows(profile, t.ctx.index);
  const graphs = profile.coverage?.unique_graphs ?? 0;
  const section = sortableTable(
    t,
    'coverage',
    `Captured-op coverage (${graphs} graph${graphs === 1 ? '' : 's'} ran)`,
    rows,
    [
      {
        label: 'scope',
        cell: r => (r.frame ? h('span', {}, frameLink(t.ctx, r.frame.compile_id), ` ${frameLabel(r.frame)}`) : r.label)
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
export function entriesSection(t: IProfileTables, profile: Profile): HTMLElement {
  return sortableTable(
    t,
    'entries',
    'Cache entries',
    entryRows(profile, t.ctx.index),
    [
      {
        label: 'compile id',
        sort: r => r.entry.compile_id,
        cell: r =>
          h(
            'span',
            {},
            frameLink(t.ctx, r.entry.compile_id),
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
export function backwardSection(profile: Profile): HTMLElement | null {
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
