/**
 * The frame-title extras registry: the rows the view puts under the title of the frame shown (its chip, name,
 * status and compile time), in this order, before the failure banner. Each entry builds its row for a frame, or
 * null when the frame has nothing to say there; the view sets the row's `data-section` to the entry's id.
 *
 * Adding an extra: a function `(ctx, frame) => HTMLElement | null` in a module of view/ (its words in model/),
 * one entry in `FRAME_EXTRAS` below, and its CSS; view.ts needs no edit.
 */
import { frameCacheStory } from './cacheStory';
import type { IViewContext } from './context';
import { frameCudaGraphs } from './cudagraphs';
import { frameAutomaticDynamic, frameSymbols } from './frameSymbols';
import type { Frame } from '../schema';

/** One registered extra of the frame title. */
export interface IFrameExtra {
  /** The row's name: its `data-section`. */
  readonly id: string;
  /** The row for `frame`, or null when it has none. */
  build(ctx: IViewContext, frame: Frame): HTMLElement | null;
}

/** The extras, in the order the view shows them. */
export const FRAME_EXTRAS: readonly IFrameExtra[] = [
  /** The dynamic-shape symbols the frame was traced with. */
  { id: 'symbols', build: frameSymbols },
  /** The inputs automatic dynamic shapes held dynamic, and who marked them. */
  { id: 'automatic-dynamic', build: (_ctx, frame) => frameAutomaticDynamic(frame) },
  /** What became of CUDA graphs for each graph the frame compiled (reduce-overhead). */
  { id: 'cudagraphs', build: frameCudaGraphs },
  /** The compile's cache story: inductor's and AOTAutograd's caches, and what made a miss. */
  { id: 'caches', build: (_ctx, frame) => frameCacheStory(frame) }
];
