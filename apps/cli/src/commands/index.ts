/**
 * The command registry. To add a command: write `src/commands/<name>.ts` exporting a {@link Command}, import
 * it here and add it to {@link COMMANDS}. `help` is added by the CLI itself.
 */
import type { Command } from '../command';
import { exportCommand } from './export';
import { odds } from './odds';
import { projections } from './projections';
import { replay } from './replay';
import { resolve } from './resolve';
import { simulate } from './simulate';
import { staff } from './staff';
import { token } from './token';
import { verify } from './verify';

/** Every command except `help`, in the order `coup help` lists them. */
export const COMMANDS: readonly Command[] = [
  odds,
  simulate,
  resolve,
  token,
  staff,
  projections,
  replay,
  verify,
  exportCommand,
];
