# Runs a model exported by `go run . export -format pytorch` on a data file
# in train mode and prints {"loss", "outputs", "grads"} as `go run . grad`
# does, for cli_test.go to compare: python3 torch_grad.py MODEL.py DATA.json
# It adds "eval_outputs": the outputs in eval mode, before training.
# torch_goldens.py calls run() to write the checked-in goldens.
import json
import runpy
import sys

import torch


def run(model_py, data_json):
    """Returns the result object for the model file and the data file."""
    ns = runpy.run_path(model_py)
    model, loss_fn = ns["model"], ns["loss_fn"]
    with open(data_json) as f:
        data = json.load(f)
    x = torch.tensor(data["x"], dtype=torch.float64).reshape((-1,) + ns["INPUT_SHAPE"])
    model.eval()
    with torch.no_grad():
        eval_out = model(x)
    model.train()
    out = model(x)
    if isinstance(loss_fn, torch.nn.CrossEntropyLoss):
        y = torch.tensor(data["y"], dtype=torch.long)
    else:
        y = torch.tensor(data["y"], dtype=torch.float64).reshape(out.shape)
    loss = loss_fn(out, y)
    loss.backward()
    return {
        "loss": loss.item(),
        "outputs": out.detach().reshape(out.shape[0], -1).tolist(),
        "grads": {k: p.grad.tolist() for k, p in model.named_parameters()},
        "eval_outputs": eval_out.reshape(eval_out.shape[0], -1).tolist(),
    }


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1], sys.argv[2])))
