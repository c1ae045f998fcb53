import type { TableState } from '@coup/table';

export type StateListener = (tableId: string, state: TableState) => void;

/**
 * The one cycle of the table module, made explicit: the processor tells of every table's new state (ADR-14), and
 * the betting timer, which arms its deadlines from those states, sends its commands through the processor. The
 * processor is built with `notify`; the timer is attached once it exists.
 */
export class TableStateRelay {
  private listener: StateListener | null = null;

  /** Sends every state change to `listener` from now on. */
  attach(listener: StateListener): void {
    this.listener = listener;
  }

  readonly notify: StateListener = (tableId, state) => this.listener?.(tableId, state);
}
