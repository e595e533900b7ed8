import { useEffect, useState } from 'preact/hooks';
import { onDeviceAvailability, promptApi, type OnDeviceAvailability, type PromptApi } from '../../lib/ui/on-device';

const TEXT: Record<OnDeviceAvailability, string> = {
  available:
    "Chrome's built-in model is available: the side panel offers an “On-device (no key)” provider. It needs no API key, and nothing you send it leaves this device. It takes text only.",
  downloadable:
    "Chrome's built-in model can be used once Chrome has downloaded it: the side panel offers an “On-device (no key)” provider, and the first message to it starts the download. It needs no API key, and nothing you send it leaves this device.",
  downloading:
    'Chrome is downloading its built-in model. The side panel offers an “On-device (no key)” provider; answers start once the download has finished. Nothing you send it leaves this device.',
  unavailable:
    "Chrome's built-in model (the Prompt API) is not available in this browser, so the side panel does not offer an “On-device” provider. It needs a recent version of Chrome on a supported computer with enough memory and disk space; chrome://on-device-internals shows why it is not available.",
};

/** Says whether Chrome's built-in model can be used, and why not when it cannot. */
export function OnDeviceNote({ api = promptApi() }: { api?: PromptApi | undefined }) {
  const [state, setState] = useState<OnDeviceAvailability | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void onDeviceAvailability(api).then((a) => live && setState(a));
    return () => void (live = false);
  }, [api]);
  return (
    <p class="hint" data-on-device={state ?? 'checking'}>
      {state ? TEXT[state] : "Checking whether Chrome's built-in model is available…"}
    </p>
  );
}
