// Testing Library's waits (findBy*, waitFor) poll for a condition that will hold; their default deadline of one
// second is a time budget a loaded CI machine (two cores shared with other suites) can exceed while the condition
// is on its way. A deadline of ten seconds only changes how long a failing test takes to say so.
import { configure } from '@testing-library/react';
// Every screen's text comes through i18next: the app's instance (English unless a test chooses Chinese).
import './i18n';

configure({ asyncUtilTimeout: 10_000 });
