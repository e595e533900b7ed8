/**
 * Icons (docs/side-panel.md, item 6): Lucide's SVG data (the `lucide` package, pinned), drawn by one small
 * Preact component so only the icons imported here reach the bundles (tree-shaken). Decorative by
 * default (`aria-hidden`): the control carrying an icon keeps its own text or accessible name.
 */
import { createElement } from 'preact';
import type { IconNode } from 'lucide';

export {
  Brain,
  Check,
  Code,
  Copy,
  Download,
  Ellipsis,
  FileText,
  FileUp,
  KeyRound,
  Lock,
  LockOpen,
  MessageSquarePlus,
  Moon,
  MousePointerClick,
  PanelLeft,
  Paperclip,
  Pin,
  Plus,
  Settings,
  SquarePen,
  Sun,
  SunMoon,
  TextQuote,
  Trash2,
  Upload,
  X,
} from 'lucide';

export interface IconProps {
  /** One Lucide icon's node list (e.g. `Lock`). */
  icon: IconNode;
  /** Size in CSS pixels; the default follows the text (1.1 em, base.css `svg.icon`). */
  size?: number;
  /** A name for a meaningful icon that stands alone; omitted: decorative. */
  label?: string;
}

/** One Lucide icon as inline SVG; `currentColor`, 2 px stroke, Lucide's own 24×24 grid. */
export function Icon({ icon, size, label }: IconProps) {
  return (
    <svg
      class="icon"
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      {...(size ? { width: size, height: size, style: { width: `${size}px`, height: `${size}px` } } : {})}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': 'true', focusable: 'false' })}
    >
      {icon.map(([tag, attrs], i) => createElement(tag, { key: i, ...attrs }))}
    </svg>
  );
}
