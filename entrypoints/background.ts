export default defineBackground(() => {
  // Stub: the engine arrives with the extension issue (lib/background/).
});
