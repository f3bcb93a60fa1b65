const { src, dest, task } = require('gulp');

// tsc emits only JavaScript; n8n loads icons and the codex file (*.node.json) from
// beside the compiled node and credential files.
function copyAssets() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

task('build:icons', copyAssets);
