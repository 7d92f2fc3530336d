declare module 'virtual:tagsite/options' {
  const options: import('./lib/options.ts').ResolvedOptions;
  export default options;
}
