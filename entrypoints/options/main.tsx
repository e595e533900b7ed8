import { render } from 'preact';
import { browser } from 'wxt/browser';
import { OptionsPage } from '../../components/options/options-page';
import { createClient } from '../../lib/messaging/client';
import '../../components/base.css';

render(<OptionsPage connector={createClient()} permissions={browser.permissions} />, document.getElementById('app')!);
