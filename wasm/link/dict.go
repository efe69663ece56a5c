package link

// dictionary is the preset deflate dictionary of version 1 links: text
// that most envelopes repeat (field names, layer types, the default model),
// so that a link need not spell it out. It is part of the v1 format and
// must never change; a new dictionary needs a new version prefix. The most
// common text comes last, where deflate reaches it with the shortest
// distances.
const dictionary = `"compiled":true,"single":true,"eval":true,"l2":0.01},` +
	`"flags":{"hide":["dataset","model","modes","stepper","train","lr","batch","optimizer","l2","noise","split","points","share","export","views"],` +
	`"lock":["model"],"embed":true,"presenter":true,"explain":true},` +
	`"points":{"x":[[0.5,-0.5]],"y":[0,1]}` +
	`{"type":"gelu"},{"type":"leaky_relu","negative_slope":0.01},{"type":"softmax"},{"type":"dropout","p":0.5},{"type":"batch_norm"},` +
	`"loss":"cross_entropy","loss":"bce_with_logits","init":"xavier",` +
	`"dataset":{"name":"circle","name":"xor","name":"gauss","name":"spiral","name":"moons","name":"sine","name":"reg-gauss",` +
	`"n":500,"noise":0.1,"train_split":0.5,"seed":0},` +
	`"optimizer":{"name":"adam","name":"momentum","name":"sgd","lr":0.03,"momentum":0.9,"betas":[0.9,0.999],"eps":1e-8,"weight_decay":0.001},"batch_size":10,"steps":500` +
	`,"params":{"0.weight":[[0.` + `],"0.bias":[0.` + `],"2.weight":[[0.` + `],"2.bias":[0.` + `]},` +
	`"view":"train","pos":{"phase":"forward","phase":"backward","phase":"done","node":-1},"modes":{` +
	`{"type":"sigmoid"},{"type":"relu"},{"type":"linear","out":8},{"type":"linear","out":2},` +
	`{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"tanh"},{"type":"linear","out":1}],"loss":"mse","seed":7,"dataset":{"name":"reg-plane"}}`
