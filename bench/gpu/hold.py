import sys, time, torch, os
gib = float(sys.argv[1]); busy = sys.argv[2] == "busy"; ready = sys.argv[3]; secs = float(sys.argv[4])
x = torch.empty(int(gib * (1 << 30)), dtype=torch.uint8, device="cuda")
x.fill_(1)
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
torch.cuda.synchronize()
open(ready, "w").write(str(os.getpid()))
end = time.time() + secs
while time.time() < end:
    if busy:
        for _ in range(20):
            a = (a @ a).clamp_(-1, 1)
        torch.cuda.synchronize()
    else:
        time.sleep(0.2)
