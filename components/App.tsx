/** Placeholder shell; the side panel and options UI arrive with the extension issues. */
export function App(props: { title: string }) {
  return (
    <main>
      <h1>{props.title}</h1>
      <p>The conversation engine is not wired up in this build yet.</p>
    </main>
  );
}
