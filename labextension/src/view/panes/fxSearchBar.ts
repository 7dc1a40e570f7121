/**
 * The node search of the FX graph pane: the search box, the count of hits, and a result chip for each of the
 * first hits; the hits and the current one are a `SearchCursor` (graph/fxsearch.ts). The pane highlights the
 * hits as you type and shows the first (opening the clusters it is in); Enter or ↓ steps to the next hit,
 * shift+Enter or ↑ to the previous, a chip to its own, and Escape clears.
 */
import { button, clear, h } from '../../dom';
import type { FxModel, INodeItem } from '../../graph/fxmodel';
import { SearchCursor } from '../../graph/fxsearch';

/** Most hits a search highlights and steps through (the first `CHIPS` get a result chip). */
const SEARCH_LIMIT = 500;
const CHIPS = 20;

/** What the search asks of its pane. */
export interface INodeSearchActions {
  /** The model of the graph shown now. */
  model(): FxModel | null;
  /** The hits changed: mark them in the picture. */
  highlight(): void;
  /** Show a hit (`typing`: the query is still being typed, so a new layout may wait). */
  show(item: INodeItem, typing: boolean): void;
}

/**
 * The search box and its results.
 */
export class NodeSearchBar {
  /** The search box (in the pane's toolbar). */
  readonly input: HTMLInputElement;
  /** The count of hits and the current one (in the toolbar). */
  readonly count: HTMLElement;
  /** The result chips (above the picture). */
  readonly results: HTMLElement;
  /** The hits and the current one. */
  readonly cursor = new SearchCursor<INodeItem>();

  constructor(private readonly _actions: INodeSearchActions) {
    this.input = h('input', {
      class: 'jp-DynamoExplorer-search',
      title: 'Find a node by name, target or module: Enter or ↓ next, ↑ previous, Escape clears',
      attrs: { type: 'search', placeholder: 'find node…', 'aria-label': 'find node' }
    });
    this.input.addEventListener('input', () => this.refresh());
    this.input.addEventListener('keydown', event => this._onKey(event));
    this.count = h('span', { class: 'jp-DynamoExplorer-muted jp-DynamoExplorer-searchCount' });
    this.results = h('div', { class: 'jp-DynamoExplorer-searchResults' });
  }

  /**
   * The query or the graph changed: new hits, highlighted in the picture, with result chips; the first hit is
   * selected and centred (`go`: false when a new graph is about to be drawn anyway).
   */
  refresh(go = true): void {
    clear(this.results);
    const model = this._actions.model();
    const query = this.input.value;
    const first = this.cursor.set(model ? model.search(query, SEARCH_LIMIT) : []);
    const hits = this.cursor.hits;
    for (const item of hits.slice(0, CHIPS)) {
      this.results.appendChild(
        button(`${item.node.name} · ${item.node.target}`, () => this._goTo(item), {
          class: 'jp-DynamoExplorer-small',
          data: { node: item.node.name }
        })
      );
    }
    if (hits.length > CHIPS) {
      this.results.appendChild(
        h('span', { class: 'jp-DynamoExplorer-muted', text: `${hits.length - CHIPS} more: Enter or ↓ steps through` })
      );
    }
    if (query.trim() && hits.length === 0) {
      this.results.appendChild(h('span', { class: 'jp-DynamoExplorer-muted', text: 'no node matches' }));
    }
    this.count.textContent = this.cursor.label();
    this._actions.highlight();
    if (go && first) {
      this._actions.show(first, true);
    }
  }

  /** Keys of the search box: Enter/↓ next hit, shift+Enter/↑ previous, Escape clears. */
  private _onKey(event: KeyboardEvent): void {
    let delta = 0;
    if (event.key === 'Enter') {
      delta = event.shiftKey ? -1 : 1;
    } else if (event.key === 'ArrowDown') {
      delta = 1;
    } else if (event.key === 'ArrowUp') {
      delta = -1;
    } else if (event.key === 'Escape') {
      if (this.input.value) {
        this.input.value = '';
        this.refresh(false);
      }
      event.preventDefault();
      event.stopPropagation();
      return;
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    const hit = this.cursor.step(delta);
    this.count.textContent = this.cursor.label();
    if (hit) {
      this._actions.show(hit, false);
    }
  }

  /** A result chip: its node becomes the current hit. */
  private _goTo(item: INodeItem): void {
    this.cursor.moveTo(item);
    this.count.textContent = this.cursor.label();
    this._actions.show(item, false);
  }
}
