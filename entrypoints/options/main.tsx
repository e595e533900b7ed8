import { render } from 'preact';
import { browser } from 'wxt/browser';
import { OptionsPage } from '../../components/options/options-page';
import { createClient } from '../../lib/messaging/client';
import '../../components/base.css';
import { zodWithoutEval } from '../../lib/messaging/zod-no-eval';
import { applyTheme, loadTheme } from '../../lib/ui/theme';

// zod never probes for eval here (the CSP forbids it; see zod-no-eval.ts).
zodWithoutEval();

// The person's light/dark choice (or the system's), before the first paint.
applyTheme(loadTheme());

render(<OptionsPage connector={createClient()} permissions={browser.permissions} />, document.getElementById('app')!);
