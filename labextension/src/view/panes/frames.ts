/**
 * Frame navigator: every compiled frame in compile order. Resume functions sit under the frame whose
 * modified bytecode created them; recompiles of one code object form a chain [0/0] → [0/1], each arrow's
 * tooltip naming the guard that failed.
 */
import type { IViewContext } from '../context';
import { cudagraphBadge } from '../cudagraphs';
import { h } from '../../dom';
import { shortReason } from '../../model/guardsModel';
import type { IChain } from '../../model/model';
import { hitsByFrame } from '../../model/profileModel';
import type { Frame } from '../../schema';
import { emptyState, Pane } from './pane';

/** Words for each status. */
const STATUS_TEXT: Record<string, string> = {
  ok: 'ok',
  graph_break: 'graph break',
  recompile: 'recompile',
  skipped: 'skipped',
  error: 'error',
  empty: 'empty'
};

/**
 * The frame navigator pane.
 */
export class FramesPane extends Pane {
  private readonly _chips = new Map<string, HTMLElement>();
  /** Hits of each cache entry, with --profile (the "×N hits" badge). */
  private readonly _hits: ReadonlyMap<string, number>;

  constructor(ctx: IViewContext) {
    super(ctx, 'frames');
    this._hits = hitsByFrame(ctx.report);
    const { index } = ctx;
    if (index.roots.length === 0) {
      this.body.appendChild(emptyState('Dynamo compiled no frame in this cell.'));
      return;
    }
    const tree = h('ul', { class: 'jp-DynamoExplorer-tree', attrs: { role: 'tree' } });
    for (const chain of index.roots) {
      tree.appendChild(this._chainItem(chain));
    }
    this.body.appendChild(tree);
  }

  /** Mark the frame shown now. */
  protected render(frame: Frame): void {
    this._setSelected(frame.compile_id);
  }

  /** No frame is shown: none is marked. */
  protected renderNoFrame(): void {
    this._setSelected(null);
  }

  private _setSelected(compileId: string | null): void {
    for (const [id, chip] of this._chips) {
      chip.classList.toggle('jp-mod-selected', id === compileId);
      chip.setAttribute('aria-selected', String(id === compileId));
    }
  }

  private _chainItem(chain: IChain): HTMLElement {
    const first = chain.frames[0];
    const chips = h('span', { class: 'jp-DynamoExplorer-chain' });
    chain.frames.forEach((frame, i) => {
      if (i > 0) {
        const before = chain.frames[i - 1];
        const why =
          frame.recompile_reasons.find(r => r.failed_compile_id === before.compile_id) ?? frame.recompile_reasons[0];
        chips.appendChild(
          h('span', {
            class: 'jp-DynamoExplorer-chainArrow',
            text: '→',
            title: why ? `recompiled: ${shortReason(why.reason)}` : `recompiled after [${before.compile_id}]`
          })
        );
      }
      chips.appendChild(this._chip(frame));
    });
    const name = h('span', {
      class: 'jp-DynamoExplorer-frameName',
      text: first.code.is_resume ? resumeLabel(first.code.name) : first.code.name,
      title: `${first.code.name} (${this.ctx.index.place(first.code.filename, first.code.firstlineno, first.code.in_cell)})`
    });
    const item = h(
      'li',
      { class: 'jp-DynamoExplorer-treeItem', data: { chain: chain.key }, attrs: { role: 'treeitem' } },
      h(
        'div',
        { class: 'jp-DynamoExplorer-treeRow' },
        first.code.is_resume ? h('span', { class: 'jp-DynamoExplorer-badge', text: 'resume' }) : null,
        name,
        chips
      )
    );
    if (chain.children.length > 0) {
      const sub = h('ul', { class: 'jp-DynamoExplorer-tree', attrs: { role: 'group' } });
      for (const child of chain.children) {
        sub.appendChild(this._chainItem(child));
      }
      item.appendChild(sub);
    }
    return item;
  }

  private _chip(frame: Frame): HTMLElement {
    const dataDependent = this.ctx.index.hasDataDependentBreak(frame);
    const reasons = frame.recompile_reasons.map(r => r.reason).join('; ');
    const title = [
      `[${frame.compile_id}] ${frame.code.name}: ${STATUS_TEXT[frame.status] ?? frame.status}`,
      dataDependent ? 'data-dependent graph break: the graph stops where Python needs a tensor value' : '',
      reasons ? `recompiled because ${reasons}` : '',
      frame.fail_reason ? `${frame.fail_type ?? 'failure'}: ${frame.fail_reason}` : ''
    ]
      .filter(Boolean)
      .join('\n');
    const chip = h(
      'button',
      {
        class: `jp-DynamoExplorer-chip jp-DynamoExplorer-status-${frame.status}${dataDependent ? ' jp-mod-dataDependent' : ''}`,
        title,
        data: { compileId: frame.compile_id, status: frame.status },
        onclick: () => void this.ctx.selectFrame(frame.compile_id)
      },
      h('span', { class: 'jp-DynamoExplorer-statusDot' }),
      `[${frame.compile_id}]`,
      dataDependent ? h('span', { class: 'jp-DynamoExplorer-flag', text: '⚠ data-dependent' }) : null,
      this._hitsBadge(frame),
      cudagraphBadge(this.ctx.report, frame)
    );
    (chip as HTMLButtonElement).type = 'button';
    this._chips.set(frame.compile_id, chip);
    return chip;
  }

  /** "×N hits": how many calls the frame's cache entry served (--profile), or nothing without a profile. */
  private _hitsBadge(frame: Frame): HTMLElement | null {
    const hits = this._hits.get(frame.compile_id);
    return hits === undefined
      ? null
      : h('span', {
          class: 'jp-DynamoExplorer-hits',
          text: `×${hits} hit${hits === 1 ? '' : 's'}`,
          title: `this cache entry served ${hits} call${hits === 1 ? '' : 's'} (--profile)`,
          data: { hits: String(hits) }
        });
  }
}

/** 'torch_dynamo_resume_in_toy_example_at_4' -> 'resume of toy_example at line 4'. */
function resumeLabel(name: string): string {
  const match = /^torch_dynamo_resume_in_(.+)_at_(\d+)$/.exec(name);
  return match ? `${match[1]} after line ${match[2]}` : name;
}
