import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';
import './staff-screens.css';
import './reports.css';
import { i18n, localeOf, type Language } from './i18n';

document.documentElement.lang = localeOf(i18n.language as Language);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
