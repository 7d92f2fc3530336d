declare module 'virtual:tagsite/options' {
  const options: import('./options.ts').ResolvedOptions;
  export default options;
}
