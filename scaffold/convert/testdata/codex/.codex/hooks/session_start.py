import subprocess
print(subprocess.run(["git", "log", "--oneline", "-5"], capture_output=True, text=True).stdout)
