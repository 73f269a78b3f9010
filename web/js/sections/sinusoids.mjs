// Section "sinusoids" of the lesson page (web/index.html). Being written.
export async function run(so, root) {
  const p = document.createElement('p');
  p.textContent = 'This section is being written.';
  root.appendChild(p);
}
