#!/usr/bin/python3
"""Writes the PyTorch goldens that cli_test.go compares `grad` with.

For every test model NAME.json that has a data file NAME_data.json beside it,
the model is exported with `go run . export -format pytorch`, run in PyTorch
(float64) by torch_grad.py on the data, and the result is written to
NAME_torch.json: the train-mode loss, outputs and gradients, the eval-mode
outputs, and the torch version. Run it from the repository root with a
python3 that has torch (Debian: apt-get install python3-torch):

    /usr/bin/python3 internal/cli/testdata/torch_goldens.py

and commit the files it writes.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from torch_grad import run  # noqa: E402


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
    for data in sorted(glob.glob(os.path.join(HERE, "*_data.json"))):
        name = os.path.basename(data)[: -len("_data.json")]
        model = os.path.join(HERE, name + ".json")
        code = subprocess.run(["go", "run", ".", "export", "-model", model, "-format", "pytorch"],
                              cwd=root, check=True, capture_output=True, text=True).stdout
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name + ".py")
            with open(path, "w") as f:
                f.write(code)
            result = run(path, data)
        result["torch"] = torch.__version__
        with open(os.path.join(HERE, name + "_torch.json"), "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
        print(name, result["loss"])


if __name__ == "__main__":
    main()
