export { cardValue } from './cards';
