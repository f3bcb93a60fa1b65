const { src, dest, task } = require('gulp');

// tsc emits only JavaScript; n8n loads node and credential icons from beside the compiled files.
function copyIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

task('build:icons', copyIcons);
