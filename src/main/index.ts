import { app, BrowserWindow } from 'electron';
import { join } from 'node:path';

// Electron entry. Placeholder window until the hardened shell lands (src/main/shell/).
async function createWindow(): Promise<void> {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  await window.loadFile(join(__dirname, '../renderer/index.html'));
}

app.whenReady().then(createWindow).catch((error: unknown) => {
  console.error('attest: could not open the main window:', error);
  app.exit(1);
});
app.on('window-all-closed', () => app.quit());
