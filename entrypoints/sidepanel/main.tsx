import { render } from 'preact';
import { browser } from 'wxt/browser';
import { SidePanel } from '../../components/side-panel/side-panel';
import { createClient } from '../../lib/messaging/client';
import '../../components/base.css';

// D5: ask once for persistent storage, so the browser does not evict conversations under pressure.
void navigator.storage?.persist?.().catch(() => false);

render(<SidePanel connector={createClient()} openOptions={() => void browser.runtime.openOptionsPage()} />, document.getElementById('app')!);
