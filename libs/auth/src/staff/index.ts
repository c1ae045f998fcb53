/** Staff accounts: the pure decider (commands, events, the directory they fold to). */
export * from './vocabulary';
export {
  EMPTY_DIRECTORY,
  activeAdmins,
  evolve,
  evolveAll,
  isLocked,
  tablesFor,
  type StaffAccount,
  type StaffDirectory,
} from './directory';
export { decide } from './decide';
