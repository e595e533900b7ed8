import { render } from 'preact';
import { App } from '../../components/App';

render(<App title="Baton options" />, document.getElementById('app')!);
