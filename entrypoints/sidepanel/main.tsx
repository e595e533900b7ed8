import { render } from 'preact';
import { browser } from 'wxt/browser';
import { SidePanel } from '../../components/side-panel/side-panel';
import { createClient } from '../../lib/messaging/client';
import '../../components/base.css';
import { applyTheme, loadTheme } from '../../lib/ui/theme';

// D5: ask once for persistent storage, so the browser does not evict conversations under pressure.
void navigator.storage?.persist?.().catch(() => false);

// The person's light/dark choice (or the system's), before the first paint.
applyTheme(loadTheme());

render(<SidePanel connector={createClient()} openOptions={() => void browser.runtime.openOptionsPage()} />, document.getElementById('app')!);
